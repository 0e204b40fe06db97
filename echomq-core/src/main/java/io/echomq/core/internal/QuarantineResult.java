package io.echomq.core.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a quarantine call moved.
 *
 * @param quarantined members moved to the {@link KeyType#QUARANTINE quarantine} location
 * @param strays stray copies removed: the id was also in the location its well-formed row
 * names, where the job goes on untouched
 * @param reasons why each quarantined member was quarantined, by member
 * @author EchoMQ
 * @since 0.1.0
 */
public record QuarantineResult(int quarantined, int strays, Map<String, String> reasons) {

	/** Nothing moved. */
	public static final QuarantineResult NONE = new QuarantineResult(0, 0, Map.of());

	/**
	 * Create a result.
	 * @param quarantined members quarantined
	 * @param strays stray copies removed
	 * @param reasons why each member was quarantined
	 */
	public QuarantineResult {
		reasons = Map.copyOf(reasons);
	}

	/**
	 * Return this result and another, added up.
	 * @param other the other result
	 * @return the sum
	 */
	public QuarantineResult plus(QuarantineResult other) {
		Map<String, String> all = new LinkedHashMap<>(this.reasons);
		all.putAll(other.reasons);
		return new QuarantineResult(this.quarantined + other.quarantined, this.strays + other.strays, all);
	}

}

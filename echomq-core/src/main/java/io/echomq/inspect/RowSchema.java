package io.echomq.inspect;

import java.util.List;

import io.echomq.core.JobState;

import org.jspecify.annotations.Nullable;

/**
 * The job row's schema, as the scripts check it ({@code scripts/includes/row.lua}) before
 * they write anything: the same fields, rules and problem texts, for the audit.
 *
 * @author EchoMQ
 */
final class RowSchema {

	/** The fields a check reads, in the order of {@link #fieldProblem(List)}. */
	static final List<String> FIELDS = List.of("state", "attempts", "max_attempts", "released", "priority",
			"enqueued_at", "ready_at");

	private static final Int[] INTS = { new Int(1, "attempts", true, 0L), new Int(2, "max_attempts", true, 1L),
			new Int(3, "released", false, 0L), new Int(4, "priority", false, null),
			new Int(5, "enqueued_at", true, null), new Int(6, "ready_at", false, null) };

	private RowSchema() {
	}

	/**
	 * Return what is wrong with a row's fields, or {@code null} when they are
	 * well-formed.
	 * @param values the values of {@link #FIELDS}, {@code null} where a field is absent
	 * @return the problem, worded as the scripts word it
	 */
	static @Nullable String fieldProblem(List<@Nullable String> values) {
		String problem = stateFieldProblem(values.get(0));
		if (problem != null) {
			return problem;
		}
		for (Int spec : INTS) {
			String raw = values.get(spec.index());
			if (raw != null) {
				Long value = parse(raw);
				if (value == null) {
					return "field '" + spec.name() + "' is not an integer";
				}
				if (spec.minimum() != null && value < spec.minimum()) {
					return "field '" + spec.name() + "' is less than " + spec.minimum();
				}
			}
			else if (spec.required()) {
				return "field '" + spec.name() + "' is missing";
			}
		}
		String released = values.get(3);
		if (released != null && parse(released) > parse(values.get(1))) {
			return "field 'released' is greater than 'attempts'";
		}
		return null;
	}

	/**
	 * Return what is wrong with a row's {@code state} field alone, or {@code null} when
	 * it names a location.
	 * @param state the field's value, {@code null} when absent
	 * @return the problem
	 */
	static @Nullable String stateFieldProblem(@Nullable String state) {
		if (state == null) {
			return "field 'state' is missing";
		}
		return isLocation(state) ? null : "field 'state' names no location";
	}

	/**
	 * Parse an integer the way the scripts' {@code int} does: an optional {@code -}, no
	 * leading zero, at most 15 digits.
	 * @param value the text
	 * @return the value, or {@code null} if the text is not such an integer
	 */
	static @Nullable Long parse(@Nullable String value) {
		if (value == null || value.isEmpty()) {
			return null;
		}
		if (value.equals("0")) {
			return 0L;
		}
		int start = (value.charAt(0) == '-') ? 1 : 0;
		int digits = value.length() - start;
		if (digits < 1 || digits > 15 || value.charAt(start) == '0') {
			return null;
		}
		for (int i = start; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c < '0' || c > '9') {
				return null;
			}
		}
		return Long.parseLong(value);
	}

	private static boolean isLocation(String state) {
		for (JobState candidate : JobState.values()) {
			if (candidate.value().equals(state)) {
				return true;
			}
		}
		return false;
	}

	private record Int(int index, String name, boolean required, @Nullable Long minimum) {

	}

}

package io.echomq.core.internal;

import org.jspecify.annotations.Nullable;

/**
 * The keys a fenced transition of one job needs declared beside its queue's own, when the
 * caller knows them from the claimed row ({@link ClaimedJob#keys(boolean)}): declared on
 * the first script call, so that the script need not answer {@code UNIQUE_KEY} or
 * {@code FLOW_KEYS} and be called again. (A job's lane needs no key here: a retried or
 * released job of a lane goes to schedule, and promote returns it to its lane.)
 *
 * @param uniqueKey the name of the unique key the row names, or {@code null}
 * @param flowParent the parent as {@link ClaimedJob#flowParent()} reads it, when the
 * transition may settle it, else {@code null}
 * @author EchoMQ
 */
public record JobKeys(@Nullable String uniqueKey, @Nullable String flowParent) {

	/** Nothing known: the script asks for what it needs. */
	public static final JobKeys UNKNOWN = new JobKeys(null, null);

	static JobKeys flowParent(@Nullable String flowParent) {
		return (flowParent != null) ? new JobKeys(null, flowParent) : UNKNOWN;
	}

}

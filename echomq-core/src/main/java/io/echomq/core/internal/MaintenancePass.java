package io.echomq.core.internal;

import java.util.OptionalLong;

/**
 * What one reap or promote pass over a queue moved, and when the next member of the
 * location it read falls due: the maintenance ticks sleep until then.
 *
 * @param <T> what the pass moved
 * @param moved what moved
 * @param nextDueAt the server time (epoch ms) at which the location's lowest member that
 * is not due yet falls due, empty when the pass saw none (the location held nothing past
 * what it moved or skipped); equal to or before the server time of the pass when a due
 * member stayed (retry soon)
 * @param expired the jobs the pass moved to dead instead because their deadline had
 * passed (a promote pass)
 * @author EchoMQ
 * @since 0.1.0
 */
public record MaintenancePass<T>(T moved, OptionalLong nextDueAt, int expired) {

	/**
	 * Create a pass that expired no job.
	 * @param moved what moved
	 * @param nextDueAt when the next member falls due
	 */
	public MaintenancePass(T moved, OptionalLong nextDueAt) {
		this(moved, nextDueAt, 0);
	}

}

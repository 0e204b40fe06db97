package io.echomq.listener;

import java.util.concurrent.atomic.LongAdder;

/**
 * What one container's jobs came to, counted by {@link LeasedJob} as each outcome is
 * recorded.
 *
 * @author EchoMQ
 */
final class ListenerCounters {

	final LongAdder completed = new LongAdder();

	final LongAdder retried = new LongAdder();

	final LongAdder dead = new LongAdder();

	final LongAdder stale = new LongAdder();

	final LongAdder released = new LongAdder();

	final LongAdder unrecorded = new LongAdder();

	final LongAdder snoozed = new LongAdder();

	final LongAdder cancelled = new LongAdder();

}

package io.echomq.test.queues;

/**
 * What a {@link EchoMqTestQueues#drain drain} did: how many jobs it ran, and what came of
 * them as the listener counts it.
 *
 * @param ran how many handler runs (a job retried within the drain counts once a run)
 * @param completed runs that completed the job
 * @param retried runs that failed and left the job to be retried
 * @param dead runs that dead-lettered the job
 * @param snoozed runs that put the job off
 * ({@link io.echomq.listener.SnoozeJobException})
 * @author EchoMQ
 * @since 0.1.0
 */
public record DrainResult(int ran, long completed, long retried, long dead, long snoozed) {

}

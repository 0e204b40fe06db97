package io.echomq.dashboard;

/**
 * A node's listener of a queue, as its last beat in the queue's node registry told it.
 *
 * @param node the node
 * @param id the listener id
 * @param concurrency how many handlers run at once
 * @param paused whether it is paused on its node
 * @param inFlight jobs claimed and not yet settled
 * @param completed jobs it completed
 * @param retried failed attempts it retried
 * @param dead jobs it dead-lettered
 * @param stale jobs whose lease was lost while running on it
 * @param seen the server time of its last beat, epoch ms
 * @param self whether it is this node
 * @author EchoMQ
 * @since 0.1.0
 */
public record NodeSummary(String node, String id, int concurrency, boolean paused, int inFlight, long completed,
		long retried, long dead, long stale, long seen, boolean self) {

}

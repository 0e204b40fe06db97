package io.echomq.dashboard;

/**
 * A queue's listener on this node.
 *
 * @param node the node
 * @param id the listener id
 * @param concurrency how many handlers run at once
 * @param running whether it was started
 * @param paused whether it is paused
 * @param pollerAlive whether its claim loop runs
 * @param inFlight jobs claimed and not yet settled
 * @param completed jobs completed here
 * @param retried failed attempts retried here
 * @param dead jobs dead-lettered here
 * @param stale jobs whose lease was lost while running here
 * @author EchoMQ
 * @since 0.1.0
 */
public record ListenerSummary(String node, String id, int concurrency, boolean running, boolean paused,
		boolean pollerAlive, int inFlight, long completed, long retried, long dead, long stale) {

}

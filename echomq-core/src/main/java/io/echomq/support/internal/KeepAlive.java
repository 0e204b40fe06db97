package io.echomq.support.internal;

import java.util.concurrent.CountDownLatch;

/**
 * A non-daemon thread that does nothing until it is ended. Every EchoMQ thread is a
 * daemon, so a component whose work runs on them (listener containers, event readers)
 * holds one of these while it runs, as spring-kafka's consumer threads do: an application
 * whose only work is that component (no web server) keeps running until it is stopped,
 * instead of exiting once its {@code main} method returns.
 *
 * @author EchoMQ
 */
public final class KeepAlive {

	private final CountDownLatch ended = new CountDownLatch(1);

	private final Thread thread;

	private KeepAlive(String name) {
		this.thread = new Thread(this::await, name);
		this.thread.setDaemon(false);
	}

	/**
	 * Start a keep-alive thread.
	 * @param name the thread's name
	 * @return the running keep-alive
	 */
	public static KeepAlive start(String name) {
		KeepAlive keepAlive = new KeepAlive(name);
		keepAlive.thread.start();
		return keepAlive;
	}

	/**
	 * End the thread (at once: it only waits for this).
	 */
	public void end() {
		this.ended.countDown();
	}

	private void await() {
		try {
			this.ended.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}

package io.echomq.dashboard;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.echomq.listener.JobContext;
import io.echomq.listener.JobHandler;
import io.echomq.listener.ReceivedJob;

/**
 * A handler for the dashboard's tests: a payload with {@code bad} fails until the handler
 * is made healthy, one with {@code hold} runs until released, any other completes.
 *
 * @author EchoMQ
 */
final class TestHandler implements JobHandler {

	private final CountDownLatch release = new CountDownLatch(1);

	private volatile boolean healthy;

	@Override
	public void handle(ReceivedJob job, JobContext context) throws Exception {
		if (job.payload().contains("hold")) {
			this.release.await(30, TimeUnit.SECONDS);
		}
		if (!this.healthy && job.payload().contains("bad")) {
			throw new IllegalStateException("No such customer");
		}
	}

	void heal() {
		this.healthy = true;
	}

	void release() {
		this.release.countDown();
	}

}

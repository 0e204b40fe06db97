package io.echomq.listener;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import org.springframework.core.log.LogAccessor;
import org.springframework.core.task.TaskExecutor;
import org.springframework.scheduling.concurrent.ExecutorConfigurationSupport;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * The background half of a container stop: wait for the poller to end and for in-flight
 * handlers up to the shutdown timeout, release what is left to pending, shut the executor
 * down (interrupting stragglers), then call back.
 *
 * @param settings the container's settings
 * @param runs the container's runs
 * @param poller the poller thread, if it started
 * @param executor the handler executor, if it started
 * @param callback what to run once drained
 * @author EchoMQ
 */
record ContainerDrain(ContainerSettings settings, Runs runs, @Nullable Thread poller, @Nullable TaskExecutor executor,
		Runnable callback) implements Runnable {

	private static final LogAccessor logger = new LogAccessor(ContainerDrain.class);

	private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	@Override
	public void run() {
		try {
			drain();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (Throwable ex) {
			logger.error(ex, () -> "Failed to drain listener for queue '" + this.settings.queue() + "'");
		}
		finally {
			this.callback.run();
		}
	}

	private void drain() throws InterruptedException {
		long deadline = System.nanoTime() + this.settings.shutdownTimeout().toNanos();
		// jobs claimed ahead that no handler started go back at once, and any the poller
		// was still leasing once it ended
		Workers.releaseWaiting(this.runs);
		if (this.poller != null) {
			this.poller.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
		}
		Workers.releaseWaiting(this.runs);
		while (this.runs.inFlight() > 0 && deadline - System.nanoTime() > 0) {
			this.runs.awaitDrainSignal(Duration.ofNanos(Math.min(deadline - System.nanoTime(), RECHECK_NANOS)));
		}
		for (LeasedJob job : this.runs.inFlightRuns()) {
			job.release();
		}
		if (this.executor != null) {
			shutdown(this.executor);
		}
		logger.debug(() -> "Stopped listener '" + this.settings.id() + "' on queue '" + this.settings.queue() + "'");
	}

	private static void shutdown(TaskExecutor executor) {
		if (executor instanceof ThreadPoolTaskExecutor pool) {
			for (Runnable queued : pool.getThreadPoolExecutor().shutdownNow()) {
				if (queued instanceof Workers.Execution execution) {
					execution.abandon();
				}
			}
			pool.shutdown();
		}
		else if (executor instanceof ExecutorConfigurationSupport support) {
			support.shutdown();
		}
		else if (executor instanceof AutoCloseable closeable) {
			try {
				closeable.close();
			}
			catch (Exception ex) {
				logger.debug(ex, "Failed to close executor");
			}
		}
	}

}

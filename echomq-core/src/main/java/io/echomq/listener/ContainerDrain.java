package io.echomq.listener;

import io.echomq.listener.internal.ContainerSettings;

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
 * @author EchoMQ
 */
final class ContainerDrain implements Runnable {

	private static final LogAccessor logger = new LogAccessor(ContainerDrain.class);

	private static final long RECHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final ContainerSettings settings;

	private final Runs runs;

	private final @Nullable Thread poller;

	private final @Nullable TaskExecutor executor;

	private final Runnable callback;

	ContainerDrain(ContainerSettings settings, Runs runs, @Nullable Thread poller, @Nullable TaskExecutor executor,
			Runnable callback) {
		this.settings = settings;
		this.runs = runs;
		this.poller = poller;
		this.executor = executor;
		this.callback = callback;
	}

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
		if (this.poller != null) {
			this.poller.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
		}
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

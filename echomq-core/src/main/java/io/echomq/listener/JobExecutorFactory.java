package io.echomq.listener;

import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.TaskExecutor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * Creates the executor that runs the handlers of one container, each time it starts. The
 * container shuts it down when it stops ({@link ThreadPoolTaskExecutor} and other
 * {@code ExecutorConfigurationSupport} executors, or any {@link AutoCloseable}).
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@FunctionalInterface
public interface JobExecutorFactory {

	/**
	 * Create an executor.
	 * @param queue the queue
	 * @param concurrency how many handlers run at once at most
	 * @return a ready executor
	 */
	TaskExecutor createExecutor(String queue, int concurrency);

	/**
	 * Return a factory of fixed-size platform thread pools named
	 * {@code echomq-<queue>-<n>}.
	 * @return the factory
	 */
	static JobExecutorFactory platformThreads() {
		return (queue, concurrency) -> {
			ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
			executor.setCorePoolSize(concurrency);
			executor.setMaxPoolSize(concurrency);
			executor.setThreadNamePrefix("echomq-" + queue + "-");
			executor.setWaitForTasksToCompleteOnShutdown(false);
			executor.initialize();
			return executor;
		};
	}

	/**
	 * Return a factory of executors that start a virtual thread per job, named
	 * {@code echomq-<queue>-<n>}. Needs Java 21.
	 * @return the factory
	 */
	static JobExecutorFactory virtualThreads() {
		return (queue, concurrency) -> {
			SimpleAsyncTaskExecutor executor = new SimpleAsyncTaskExecutor("echomq-" + queue + "-");
			executor.setVirtualThreads(true);
			return executor;
		};
	}

}

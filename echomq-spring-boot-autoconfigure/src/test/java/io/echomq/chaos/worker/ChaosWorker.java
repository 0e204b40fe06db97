package io.echomq.chaos.worker;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.echomq.autoconfigure.EchoMqClusterAutoConfiguration;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.ScriptExecutor;
import io.echomq.listener.ContainerDefaults;
import io.echomq.listener.EchoJobListenerContainerFactory;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.JobExecutorFactory;
import io.echomq.listener.JobHandler;
import io.echomq.listener.ListenerSettings;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.maintenance.internal.EchoMqMaintenance;
import io.echomq.maintenance.internal.MaintenanceSettings;
import io.echomq.test.TestServer;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * One application's worth of EchoMQ consumers, wired by hand the way the
 * auto-configuration wires them: its own Lettuce connection factory, engine, container
 * factory, listener registry and reap/promote scheduler. Used in the test JVM and in the
 * child worker JVM that {@link WorkerMain} runs.
 *
 * @author EchoMQ
 */
public final class ChaosWorker implements AutoCloseable {

	private final LettuceConnectionFactory connectionFactory;

	private final Runnable releaseConnection;

	private final WorkerSettings settings;

	private final Engine jobs;

	private final EchoJobListenerContainerFactory containerFactory;

	private final EchoJobListenerRegistry registry;

	private final EchoMqMaintenance scheduler;

	private volatile boolean closed;

	private volatile QueuePartitioning partitioning = QueuePartitioning.none();

	/**
	 * Create a worker that owns the given (started) connection factory.
	 * @param connectionFactory the connection factory, destroyed by {@link #close()}
	 * @param settings how to consume
	 */
	public ChaosWorker(LettuceConnectionFactory connectionFactory, WorkerSettings settings) {
		this(connectionFactory, connectionFactory::destroy, settings);
	}

	private ChaosWorker(LettuceConnectionFactory connectionFactory, Runnable releaseConnection,
			WorkerSettings settings) {
		this.connectionFactory = connectionFactory;
		this.releaseConnection = releaseConnection;
		this.settings = settings;
		this.jobs = new Engine(new ScriptExecutor(new StringRedisTemplate(connectionFactory)),
				new Keyspace(settings.prefix()));
		this.containerFactory = new EchoJobListenerContainerFactory(this.jobs);
		this.containerFactory.setDefaults(new ContainerDefaults(settings.concurrency(), settings.lease(),
				settings.backoff(), true, settings.idleWait(), settings.shutdownTimeout()));
		this.containerFactory.setExecutorFactory(JobExecutorFactory.platformThreads());
		this.containerFactory.setEventListeners(settings.eventListeners());
		this.registry = new EchoJobListenerRegistry(this.containerFactory);
		this.scheduler = new EchoMqMaintenance(this.jobs,
				new MaintenanceSettings(settings.reapInterval(), settings.promoteInterval(), 500),
				() -> this.partitioning.engineNames(this.registry.getQueues()), ChaosWorker::tickScheduler,
				settings.eventListeners());
	}

	/**
	 * Open a started connection factory on a standalone server.
	 * @param host the host
	 * @param port the port
	 * @param commandTimeout the Lettuce command timeout
	 * @return the connection factory
	 */
	public static LettuceConnectionFactory standalone(String host, int port, Duration commandTimeout) {
		LettuceClientConfiguration client = LettuceClientConfiguration.builder().commandTimeout(commandTimeout).build();
		return started(new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port), client));
	}

	/**
	 * Create a worker on a standalone server.
	 * @param server the server
	 * @param commandTimeout the command timeout
	 * @param settings how to consume
	 * @return a new worker, not started
	 */
	public static ChaosWorker onServer(TestServer server, Duration commandTimeout, WorkerSettings settings) {
		return new ChaosWorker(standalone(server.host(), server.port(), commandTimeout), settings);
	}

	/**
	 * Create a worker on a cluster whose connection factory is the one an application
	 * gets: Spring Boot's and EchoMQ's auto-configuration build it from
	 * {@code spring.data.redis.cluster.nodes} and {@code spring.data.redis.timeout}, and
	 * nothing else is set on the client.
	 * @param seedNodes the {@code host:port} of the nodes
	 * @param commandTimeout the command timeout ({@code spring.data.redis.timeout})
	 * @param settings how to consume
	 * @return the worker, which closes the connection's context when it closes
	 */
	public static ChaosWorker onCluster(List<String> seedNodes, Duration commandTimeout, WorkerSettings settings) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ClusterConnection.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.run("--spring.data.redis.cluster.nodes=" + String.join(",", seedNodes),
					"--spring.data.redis.timeout=" + commandTimeout.toMillis() + "ms");
		return new ChaosWorker(context.getBean(LettuceConnectionFactory.class), context::close, settings);
	}

	private static LettuceConnectionFactory started(LettuceConnectionFactory factory) {
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	private static ThreadPoolTaskScheduler tickScheduler() {
		ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
		scheduler.setPoolSize(2);
		scheduler.setThreadNamePrefix("chaos-scheduler-");
		scheduler.setDaemon(true);
		scheduler.setWaitForTasksToCompleteOnShutdown(true);
		scheduler.setAwaitTerminationSeconds(5);
		return scheduler;
	}

	/**
	 * Register a listener with the worker's defaults; it starts at once if the worker
	 * runs.
	 * @param queue the queue
	 * @param handler the handler
	 * @return the container
	 */
	public QueueListenerContainer register(String queue, JobHandler handler) {
		return this.registry.register(queue, handler, ListenerSettings.inherit());
	}

	/**
	 * Register a listener.
	 * @param queue the queue
	 * @param handler the handler
	 * @param listenerSettings what the listener sets explicitly
	 * @return the container
	 */
	public QueueListenerContainer register(String queue, JobHandler handler, ListenerSettings listenerSettings) {
		return this.registry.register(queue, handler, listenerSettings);
	}

	/**
	 * Spread queues over partitions: containers registered from now on claim across them,
	 * and the ticks cover each.
	 * @param partitioning the partitioning
	 */
	public void partition(QueuePartitioning partitioning) {
		this.partitioning = partitioning;
		this.containerFactory.setPartitioning(partitioning);
	}

	/**
	 * Start the scheduler and every registered container.
	 */
	public void start() {
		this.scheduler.start();
		this.registry.start();
	}

	/**
	 * Stop the containers (draining up to the shutdown timeout) and the scheduler.
	 */
	public void stop() {
		this.registry.stop();
		this.scheduler.stop();
	}

	/**
	 * Crash the worker as far as Redis can tell: its connections are closed first, so
	 * nothing it still has to say (completions, releases, renewals) reaches the server;
	 * then its threads are stopped. Its claims are left to lease expiry and the reaper of
	 * another worker.
	 */
	public void crash() {
		this.closed = true;
		this.releaseConnection.run();
		this.registry.stop();
		this.scheduler.stop();
		this.containerFactory.destroy();
	}

	/**
	 * Return whether the poller thread of every running container is alive.
	 * @return {@code true} if every running container still polls
	 */
	public boolean pollersAlive() {
		return this.registry.getContainers()
			.values()
			.stream()
			.filter(QueueListenerContainer::isRunning)
			.allMatch(QueueListenerContainer::isPollerAlive);
	}

	/**
	 * Return the engine.
	 * @return the jobs
	 */
	public Engine jobs() {
		return this.jobs;
	}

	/**
	 * Return the registered containers.
	 * @return the containers by queue
	 */
	public Map<String, QueueListenerContainer> containers() {
		return this.registry.getContainers();
	}

	/**
	 * Return the scheduler.
	 * @return the scheduler
	 */
	public EchoMqMaintenance maintenance() {
		return this.scheduler;
	}

	/**
	 * Return whether a stop drains the running jobs, or stops without waiting for them.
	 * @return {@code true} if the shutdown timeout is positive
	 */
	public boolean drainsOnStop() {
		return !this.settings.shutdownTimeout().isZero();
	}

	/**
	 * Return a template on the worker's connection factory.
	 * @return a new template
	 */
	public StringRedisTemplate template() {
		return this.jobs.executor().getTemplate();
	}

	/**
	 * Stop the worker and release its connections.
	 */
	@Override
	public void close() {
		if (this.closed) {
			return;
		}
		this.closed = true;
		try {
			stop();
		}
		finally {
			this.containerFactory.destroy();
			this.releaseConnection.run();
		}
	}

	/**
	 * The Redis connection of an application on a cluster, as the auto-configuration
	 * builds it.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataRedisAutoConfiguration.class, EchoMqClusterAutoConfiguration.class })
	static class ClusterConnection {

	}

}

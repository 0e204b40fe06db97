package io.echomq.devservices;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.RespClient;
import io.echomq.test.server.RespErrorException;
import org.apache.commons.logging.Log;

import org.springframework.aot.AotDetector;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Starts a local server for development when none answers where the application is
 * configured to find one on this machine ({@code spring.data.redis.url}, or
 * {@code spring.data.redis.host}/{@code port}, by default {@code localhost:6379}): a
 * {@code valkey-server} on the {@code PATH}, else a {@code redis-server}, else the Redis
 * binary shipped in the embedded-redis jar. The application is pointed at it with
 * highest-precedence {@code spring.data.redis.*} properties, and the log says so.
 * <p>
 * Like Spring Boot's Docker Compose support, it does nothing:
 * <ul>
 * <li>with {@code echomq.devservices.enabled=false};</li>
 * <li>in tests, unless {@code echomq.devservices.skip.in-tests=false};</li>
 * <li>in an application run from a packaged jar or war, unless
 * {@code echomq.devservices.enabled=true} (and Spring Boot's Maven plugin leaves this
 * optional dependency out of the packaged archive anyway);</li>
 * <li>for Sentinel or Cluster settings, or a host that is not this machine;</li>
 * <li>during AOT processing and in native images.</li>
 * </ul>
 * One server serves the whole JVM, so a DevTools restart finds its data again; it stops
 * when the JVM exits, after the application contexts closed. It keeps nothing on disk.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class DevServerEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/** Name of the property source that points the application at the server. */
	public static final String PROPERTY_SOURCE_NAME = "echomqDevServer";

	/** Prefix of the settings, see {@link DevServicesProperties}. */
	public static final String PREFIX = "echomq.devservices";

	private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);

	private final Log logger;

	private final RunContext runContext;

	/**
	 * Create the post-processor, as Spring Boot does from {@code spring.factories}.
	 * @param logFactory the factory of logs that are written once logging is set up
	 */
	public DevServerEnvironmentPostProcessor(DeferredLogFactory logFactory) {
		this(logFactory, RunContext.detect());
	}

	DevServerEnvironmentPostProcessor(DeferredLogFactory logFactory, RunContext runContext) {
		this.logger = logFactory.getLog(DevServerEnvironmentPostProcessor.class);
		this.runContext = runContext;
	}

	/**
	 * Run after the application's configuration files were read.
	 * @return {@link Ordered#LOWEST_PRECEDENCE}
	 */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		DevServicesProperties properties = Binder.get(environment).bindOrCreate(PREFIX, DevServicesProperties.class);
		Boolean enabled = properties.enabled();
		if (Boolean.FALSE.equals(enabled)) {
			this.logger.debug("EchoMQ dev services disabled by " + PREFIX + ".enabled=false");
			return;
		}
		if (Boolean.getBoolean("spring.aot.processing") || AotDetector.useGeneratedArtifacts()) {
			this.logger.debug("EchoMQ dev services are off during AOT processing and in native images");
			return;
		}
		ClassLoader classLoader = classLoader(application);
		if (properties.skip().inTests() && this.runContext.inTest(classLoader)) {
			this.logger
				.debug("EchoMQ dev services skipped in a test; set " + PREFIX + ".skip.in-tests=false to use them");
			return;
		}
		if (enabled == null && this.runContext.packaged(classLoader)) {
			this.logger.info("EchoMQ dev services are off in a packaged application; set " + PREFIX
					+ ".enabled=true to start a local server all the same");
			return;
		}
		RedisTarget target = RedisTarget.of(environment);
		if (!target.standalone()) {
			this.logger
				.info("EchoMQ dev services leave Redis " + target.topology() + " (" + target.source() + ") alone");
			return;
		}
		if (!target.local()) {
			this.logger.info("EchoMQ dev services leave " + target.address() + " (" + target.source()
					+ ") alone: not this machine");
			return;
		}
		if (answers(target)) {
			this.logger.info("EchoMQ dev services found a server answering at " + target.address() + " ("
					+ target.source() + "); using it");
			return;
		}
		DevServer.Obtained obtained = DevServer
			.obtain(environment.getProperty("spring.main.register-shutdown-hook", Boolean.class, true));
		RedisServerProcess server = obtained.process();
		this.logger.info("No Redis answered at " + target.address() + " (" + target.source() + "); EchoMQ dev services "
				+ (obtained.started() ? "started " : "reuse ") + server.binary().describe() + " at " + server.address()
				+ " for development (data is not kept; it stops with the JVM). Set " + PREFIX
				+ ".enabled=false to turn this off.");
		Map<String, Object> redis = new LinkedHashMap<>();
		redis.put("spring.data.redis.host", server.host());
		redis.put("spring.data.redis.port", server.port());
		redis.put("spring.data.redis.url", "redis://" + server.address());
		environment.getPropertySources().addFirst(new MapPropertySource(PROPERTY_SOURCE_NAME, redis));
	}

	private static ClassLoader classLoader(SpringApplication application) {
		ClassLoader classLoader = application.getClassLoader();
		return (classLoader != null) ? classLoader : ClassUtils.getDefaultClassLoader();
	}

	private static boolean answers(RedisTarget target) {
		try (RespClient client = RespClient.connect(target.host(), target.port(), PROBE_TIMEOUT)) {
			client.command("PING");
			return true;
		}
		catch (RespErrorException ex) {
			// NOAUTH and the like: a server is there, the application's credentials
			// decide the rest
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}

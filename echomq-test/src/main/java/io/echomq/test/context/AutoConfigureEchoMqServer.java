package io.echomq.test.context;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.echomq.test.TestRedisServer;
import io.echomq.test.TestServer;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a Spring test against a real Redis or Valkey server that EchoMQ's test support
 * starts or reuses, in place of the Redis the application is configured for. Put it on a
 * {@code @SpringBootTest} (or any Spring TestContext test class):
 *
 * <pre class="code">
 * &#064;SpringBootTest
 * &#064;AutoConfigureEchoMqServer
 * class SignupTests {
 *
 *     &#064;Autowired
 *     EchoMqTemplate echoMq;
 *
 *     &#064;Test
 *     void signupSendsWelcomeEmail() { ... }
 *
 * }
 * </pre>
 *
 * The server comes from {@link TestRedisServer}'s chain: the address in
 * {@code ECHOMQ_TEST_REDIS_URL}, a Testcontainers {@code valkey/valkey} container when a
 * Docker engine answers, a {@code valkey-server} or {@code redis-server} on {@code PATH},
 * else the Redis binary shipped in the embedded-redis jar. Before the context refreshes,
 * {@code spring.data.redis.host}, {@code spring.data.redis.port} and
 * {@code spring.data.redis.url} are set to the server with the highest precedence, a
 * {@code DataRedisConnectionDetails} bean pointing at it replaces whatever the
 * application configures (credentials, sentinel, cluster), and the {@link TestServer} is
 * a bean that a test can inject.
 * <p>
 * By default one server is shared by every test context of the JVM (like the context
 * cache, so cached contexts whose listeners consume the same queue compete for its jobs:
 * use distinct queue names or key prefixes, or {@link #shared() shared = false}), and
 * released when the JVM exits, once Spring Boot's shutdown hook closed the contexts still
 * open, so that no context's shutdown finds its server already gone.
 *
 * @author EchoMQ
 * @since 0.1.0
 * @see TestRedisServer
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(EchoMqServerCondition.class)
public @interface AutoConfigureEchoMqServer {

	/**
	 * The kind of server to run, at most one. Empty (the default) takes the first server
	 * the resolution chain supplies; {@link ServerFlavor#VALKEY} or
	 * {@link ServerFlavor#REDIS} asks for that binary on {@code PATH} (for Redis, else
	 * the embedded Redis). When it is missing, a JUnit Jupiter test class is skipped with
	 * the reason, except on CI ({@code CI=true}), where the missing binary fails the
	 * test.
	 * @return the flavor, or none for any
	 */
	ServerFlavor[] flavor() default {};

	/**
	 * Whether to share the server with every other test context of this JVM that asks for
	 * the same flavor. When {@code false} the context gets a server of its own, stopped
	 * when the context closes.
	 * @return whether the server is shared
	 */
	boolean shared() default true;

}

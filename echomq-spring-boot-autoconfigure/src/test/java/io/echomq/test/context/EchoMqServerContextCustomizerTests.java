package io.echomq.test.context;

import java.util.List;

import io.echomq.test.TestServer;
import io.echomq.test.server.RedisServerProcess;
import io.echomq.test.server.RespClient;
import io.echomq.test.server.ServerBinary;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.Test;

import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.MergedContextConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link EchoMqServerContextCustomizerFactory} and
 * {@link EchoMqServerContextCustomizer}.
 *
 * @author EchoMQ
 */
class EchoMqServerContextCustomizerTests {

	private final EchoMqServerContextCustomizerFactory factory = new EchoMqServerContextCustomizerFactory();

	@Test
	void classWithoutTheAnnotationIsLeftAlone() {
		assertThat(this.factory.createContextCustomizer(Plain.class, List.of())).isNull();
	}

	@Test
	void classesWithTheSameAnnotationShareACachedContext() {
		ContextCustomizer first = this.factory.createContextCustomizer(SharedAny.class, List.of());
		ContextCustomizer second = this.factory.createContextCustomizer(AnotherSharedAny.class, List.of());
		ContextCustomizer valkey = this.factory.createContextCustomizer(OwnValkey.class, List.of());
		assertThat(first).isNotNull().isEqualTo(second).hasSameHashCodeAs(second).isNotEqualTo(valkey);
	}

	@Test
	void nestedClassInheritsTheEnclosingAnnotation() {
		assertThat(this.factory.createContextCustomizer(SharedAny.Inner.class, List.of()))
			.isEqualTo(this.factory.createContextCustomizer(SharedAny.class, List.of()));
	}

	@Test
	void twoFlavorsFailNamingTheClass() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.factory.createContextCustomizer(TwoFlavors.class, List.of()))
			.withMessageContaining(TwoFlavors.class.getName())
			.withMessageContaining("more than one flavor");
	}

	@Test
	void serverOfItsOwnStopsWithTheContext() throws Exception {
		ContextCustomizer customizer = this.factory.createContextCustomizer(OwnValkey.class, List.of());
		RedisServerProcess process;
		try (GenericApplicationContext context = new GenericApplicationContext()) {
			customizer.customizeContext(context, mergedConfig(OwnValkey.class));
			context.refresh();
			TestServer server = context.getBean(TestServer.class);
			// without valkey-server on PATH (and CI unset) the annotation falls back to
			// the chain
			ServerFlavor expected = ServerBinary.onPath(ServerFlavor.VALKEY).isPresent() ? ServerFlavor.VALKEY
					: ServerFlavor.REDIS;
			assertThat(server.flavor()).isEqualTo(expected);
			assertThat(server.process()).isPresent();
			process = server.process().get();
			try (RespClient client = process.openClient()) {
				assertThat(client.command("PING")).isEqualTo("PONG");
			}
			DataRedisConnectionDetails details = context.getBean(DataRedisConnectionDetails.class);
			assertThat(details.getStandalone().getPort()).isEqualTo(server.port());
			assertThat(details.getPassword()).isNull();
			assertThat(details.getCluster()).isNull();
			assertThat(details.getSentinel()).isNull();
			assertThat(context.getEnvironment().getPropertySources().iterator().next().getName())
				.isEqualTo(EchoMqServerContextCustomizer.PROPERTY_SOURCE_NAME);
		}
		assertThat(process.isAlive()).isFalse();
	}

	private static MergedContextConfiguration mergedConfig(Class<?> testClass) {
		return new MergedContextConfiguration(testClass, new String[0], new Class<?>[0], new String[0], null);
	}

	static class Plain {

	}

	@AutoConfigureEchoMqServer
	static class SharedAny {

		class Inner {

		}

	}

	@AutoConfigureEchoMqServer
	static class AnotherSharedAny {

	}

	@AutoConfigureEchoMqServer(flavor = ServerFlavor.VALKEY, shared = false)
	static class OwnValkey {

	}

	@AutoConfigureEchoMqServer(flavor = { ServerFlavor.VALKEY, ServerFlavor.REDIS })
	static class TwoFlavors {

	}

}

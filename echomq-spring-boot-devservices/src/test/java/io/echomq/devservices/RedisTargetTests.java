package io.echomq.devservices;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link RedisTarget}.
 *
 * @author EchoMQ
 */
class RedisTargetTests {

	@Test
	void defaultIsLocalhost6379() {
		RedisTarget target = RedisTarget.of(environment(Map.of()));
		assertThat(target.standalone()).isTrue();
		assertThat(target.address()).isEqualTo("localhost:6379");
		assertThat(target.local()).isTrue();
	}

	@Test
	void urlWinsOverHostAndPort() {
		RedisTarget target = RedisTarget.of(environment(Map.of("spring.data.redis.url", "rediss://u:p@127.0.0.2:7000",
				"spring.data.redis.host", "example.invalid", "spring.data.redis.port", "1")));
		assertThat(target.address()).isEqualTo("127.0.0.2:7000");
		assertThat(target.local()).isTrue();
	}

	@Test
	void loopbackLiteralsAreLocalAndNamesAreNotLookedUp() {
		assertThat(target("127.0.0.1").local()).isTrue();
		assertThat(target("[::1]").local()).isTrue();
		assertThat(target("::1").local()).isTrue();
		assertThat(target("LOCALHOST").local()).isTrue();
		assertThat(target("redis.localhost").local()).isTrue();
		assertThat(target("10.0.0.5").local()).isFalse();
		assertThat(target("redis.example.invalid").local()).isFalse();
	}

	@Test
	void sentinelAndClusterAreNotStandalone() {
		assertThat(
				RedisTarget.of(environment(Map.of("spring.data.redis.sentinel.nodes", "127.0.0.1:26379"))).topology())
			.isEqualTo("sentinel");
		assertThat(RedisTarget.of(environment(Map.of("spring.data.redis.cluster.nodes", "127.0.0.1:7000"))).topology())
			.isEqualTo("cluster");
	}

	@Test
	void malformedUrlFailsNamingTheProperty() {
		assertThatIllegalStateException()
			.isThrownBy(() -> RedisTarget.of(environment(Map.of("spring.data.redis.url", "redis://bad host:1"))))
			.withMessageContaining("spring.data.redis.url");
	}

	private static RedisTarget target(String host) {
		return RedisTarget.of(environment(Map.of("spring.data.redis.host", host)));
	}

	private static StandardEnvironment environment(Map<String, Object> properties) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
		return environment;
	}

}

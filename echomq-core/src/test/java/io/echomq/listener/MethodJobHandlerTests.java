package io.echomq.listener;

import java.io.IOException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.echomq.core.ClaimedJob;
import io.echomq.core.JobId;
import io.echomq.support.JacksonPayloadConverter;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests of {@link MethodJobHandler}.
 *
 * @author EchoMQ
 */
class MethodJobHandlerTests {

	private final JacksonPayloadConverter converter = new JacksonPayloadConverter(JsonMapper.builder().build());

	private final Target target = new Target();

	@Test
	void genericPayloadIsReadIntoTheParameterType() throws Exception {
		MethodJobHandler handler = MethodJobHandler.create(this.target, method("items", List.class), this.converter);
		handler.handle(job("[{\"sku\":\"a\",\"quantity\":2}]"), null);
		assertThat(this.target.seen).containsExactly(List.of(new Item("a", 2)));
	}

	@Test
	void methodWithoutPayloadIsInvoked() throws Exception {
		MethodJobHandler handler = MethodJobHandler.create(this.target, method("noPayload", ReceivedJob.class),
				this.converter);
		ReceivedJob job = job("ignored");
		handler.handle(job, null);
		assertThat(this.target.seen).containsExactly(job.id());
	}

	@Test
	void unreadablePayloadThrowsUnreadablePayloadException() {
		MethodJobHandler handler = MethodJobHandler.create(this.target, method("items", List.class), this.converter);
		assertThatExceptionOfType(UnreadablePayloadException.class).isThrownBy(() -> handler.handle(job("{"), null))
			.withMessageContaining("MethodJobHandlerTests$Target#items(List)");
		assertThatExceptionOfType(UnreadablePayloadException.class)
			.isThrownBy(() -> MethodJobHandler.create(this.target, method("primitive", int.class), this.converter)
				.handle(job("null"), null));
	}

	@Test
	void checkedExceptionFromTheMethodIsRethrownUnwrapped() {
		MethodJobHandler handler = MethodJobHandler.create(this.target, method("fails", String.class), this.converter);
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> handler.handle(job("\"x\""), null))
			.withMessage("io x");
	}

	@Test
	void claimedJobParameterIsRejected() {
		assertThatIllegalStateException()
			.isThrownBy(() -> MethodJobHandler.validate(method("claimed", ClaimedJob.class)))
			.withMessageContaining("fencing token")
			.withMessageContaining("declare it as " + ReceivedJob.class.getName());
	}

	@Test
	void contextSubtypeParameterIsRejected() {
		assertThatIllegalStateException()
			.isThrownBy(() -> MethodJobHandler.validate(method("subtype", LeasedJob.class)))
			.withMessageContaining("declare it as " + JobContext.class.getName());
	}

	private static Method method(String name, Class<?>... types) {
		Method method = ReflectionUtils.findMethod(Target.class, name, types);
		assertThat(method).isNotNull();
		return method;
	}

	private static ReceivedJob job(String payload) {
		Instant now = Instant.now();
		return new ReceivedJob("q", JobId.mint(), 1, 3, payload, now, now, now, now.plus(Duration.ofSeconds(30)),
				Map.of());
	}

	record Item(String sku, int quantity) {
	}

	static class Target {

		final List<Object> seen = new ArrayList<>();

		void items(List<Item> items) {
			this.seen.add(items);
		}

		void noPayload(ReceivedJob job) {
			this.seen.add(job.id());
		}

		void primitive(int value) {
			this.seen.add(value);
		}

		void fails(String payload) throws IOException {
			throw new IOException("io " + payload);
		}

		void subtype(LeasedJob job) {
		}

		void claimed(ClaimedJob job) {
		}

	}

}

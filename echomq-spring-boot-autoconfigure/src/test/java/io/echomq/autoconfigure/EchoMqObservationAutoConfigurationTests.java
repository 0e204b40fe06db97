package io.echomq.autoconfigure;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import io.echomq.EchoMqTemplate;
import io.echomq.core.JobId;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.ListenerSettings;
import io.echomq.micrometer.ObservationEnqueueInterceptor;
import io.echomq.micrometer.ObservationJobInvocationInterceptor;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleSpan;
import io.micrometer.tracing.test.simple.SimpleTracer;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatRuntimeException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link EchoMqObservationAutoConfiguration}: the opt-in switches, the
 * observations of both sides, and trace continuity from producer to consumer through the
 * job row.
 *
 * @author EchoMQ
 */
class EchoMqObservationAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = ObservabilityTestSupport
		.runner(EchoMqObservationAutoConfiguration.class);

	@Test
	void runShouldNotObserveByDefault() {
		this.contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
			.run((context) -> assertThat(context).hasSingleBean(EchoMqTemplate.class)
				.doesNotHaveBean(ObservationEnqueueInterceptor.class)
				.doesNotHaveBean(ObservationJobInvocationInterceptor.class));
	}

	@Test
	void runWhenEnabledShouldCreateInterceptors() {
		this.contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
			.withPropertyValues("echomq.template.observation-enabled=true", "echomq.listener.observation-enabled=true")
			.run((context) -> assertThat(context).hasSingleBean(ObservationEnqueueInterceptor.class)
				.hasSingleBean(ObservationJobInvocationInterceptor.class));
	}

	@Test
	void runWithoutObservationRegistryBeanShouldBackOff() {
		this.contextRunner
			.withPropertyValues("echomq.template.observation-enabled=true", "echomq.listener.observation-enabled=true")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ObservationEnqueueInterceptor.class)
				.doesNotHaveBean(ObservationJobInvocationInterceptor.class));
	}

	@Test
	void runWithoutMicrometerObservationShouldBackOff() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(ObservationRegistry.class))
			.withPropertyValues("echomq.template.observation-enabled=true", "echomq.listener.observation-enabled=true")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(EchoMqTemplate.class)
				.doesNotHaveBean(ObservationEnqueueInterceptor.class)
				.doesNotHaveBean(ObservationJobInvocationInterceptor.class));
	}

	@Test
	void bothSidesShouldBeObservedWithTheirConventions() {
		String queue = ObservabilityTestSupport.unique("observed");
		TestObservationRegistry registry = TestObservationRegistry.create();
		this.contextRunner.withBean(ObservationRegistry.class, () -> registry)
			.withPropertyValues("echomq.template.observation-enabled=true", "echomq.listener.observation-enabled=true")
			.run((context) -> {
				context.getBean(EchoJobListenerRegistry.class).register(queue, (job, jobContext) -> {
					throw new IllegalStateException("boom");
				}, ListenerSettings.builder().id("observed-listener").maxAttempts(1).build());
				JobId id = context.getBean(EchoMqTemplate.class).enqueue(queue, "x");
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> assertThat(registry).hasObservationWithNameEqualTo("echomq.listener")
						.that()
						.hasBeenStopped());
				assertThat(registry).hasObservationWithNameEqualTo("echomq.template")
					.that()
					.hasContextualNameEqualTo(queue + " publish")
					.hasLowCardinalityKeyValue("echomq.queue", queue)
					.hasLowCardinalityKeyValue("messaging.operation", "publish")
					.hasHighCardinalityKeyValue("messaging.message.id", id.toString())
					.hasBeenStopped()
					.doesNotHaveError();
				assertThat(registry).hasObservationWithNameEqualTo("echomq.listener")
					.that()
					.hasContextualNameEqualTo(queue + " process")
					.hasLowCardinalityKeyValue("echomq.queue", queue)
					.hasLowCardinalityKeyValue("echomq.listener.id", "observed-listener")
					.hasLowCardinalityKeyValue("messaging.system", "echomq")
					.hasHighCardinalityKeyValue("messaging.message.id", id.toString())
					.hasHighCardinalityKeyValue("echomq.job.attempt", "1")
					.hasError();
			});
	}

	@Test
	void consumerSpanShouldContinueTheProducerTrace() {
		String queue = ObservabilityTestSupport.unique("traced");
		SimpleTracer tracer = new SimpleTracer();
		TraceparentPropagator propagator = new TraceparentPropagator(tracer);
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig()
			.observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
					new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
					new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
					new DefaultTracingObservationHandler(tracer)));
		AtomicReference<Map<String, String>> rowFields = new AtomicReference<>();
		AtomicReference<Span> handlerSpan = new AtomicReference<>();
		this.contextRunner.withBean(ObservationRegistry.class, () -> registry)
			.withPropertyValues("echomq.template.observation-enabled=true", "echomq.listener.observation-enabled=true")
			.run((context) -> {
				context.getBean(EchoJobListenerRegistry.class).register(queue, (job, jobContext) -> {
					rowFields.set(job.fields());
					handlerSpan.set(tracer.currentSpan());
				});
				Observation request = Observation.start("http.server.requests", registry);
				try (Observation.Scope scope = request.openScope()) {
					context.getBean(EchoMqTemplate.class).enqueue(queue, "x");
				}
				finally {
					request.stop();
				}
				await().atMost(Duration.ofSeconds(10)).until(() -> tracer.getSpans().size() == 3);
			});
		SimpleSpan requestSpan = span(tracer, "http.server.requests");
		SimpleSpan producer = span(tracer, queue + " publish");
		SimpleSpan consumer = span(tracer, queue + " process");
		assertThat(producer.getTraceId()).isEqualTo(requestSpan.getTraceId());
		assertThat(producer.getParentId()).isEqualTo(requestSpan.getSpanId());
		assertThat(consumer.getTraceId()).isEqualTo(producer.getTraceId());
		assertThat(consumer.getParentId()).isEqualTo(producer.getSpanId());
		assertThat(rowFields.get()).containsEntry(TraceparentPropagator.TRACEPARENT,
				"00-" + producer.getTraceId() + "-" + producer.getSpanId() + "-01");
		assertThat(handlerSpan.get()).as("span in scope inside the handler").isNotNull();
		assertThat(handlerSpan.get().context().spanId()).isEqualTo(consumer.getSpanId());
	}

	@Test
	void failedEnqueueShouldStopTheObservationWithTheError() throws IOException {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		TestObservationRegistry registry = TestObservationRegistry.create();
		this.contextRunner.withBean(ObservationRegistry.class, () -> registry)
			.withPropertyValues("spring.data.redis.port=" + closedPort, "echomq.template.observation-enabled=true",
					"echomq.listener.auto-startup=false")
			.run((context) -> {
				assertThatRuntimeException()
					.isThrownBy(() -> context.getBean(EchoMqTemplate.class).enqueue("unreachable", "x"));
				assertThat(registry).hasObservationWithNameEqualTo("echomq.template")
					.that()
					.hasBeenStopped()
					.hasError();
			});
	}

	private static SimpleSpan span(SimpleTracer tracer, String name) {
		return tracer.getSpans()
			.stream()
			.filter((span) -> name.equals(span.getName()))
			.findFirst()
			.orElseThrow(() -> new AssertionError("No span '" + name + "' in " + tracer.getSpans()));
	}

}

package io.echomq.autoconfigure;

import java.util.List;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.propagation.Propagator;
import io.micrometer.tracing.test.simple.SimpleTracer;

/**
 * A W3C {@code traceparent} propagator for the {@link SimpleTracer}, which ships without
 * one.
 *
 * @author EchoMQ
 */
final class TraceparentPropagator implements Propagator {

	static final String TRACEPARENT = "traceparent";

	private final SimpleTracer tracer;

	TraceparentPropagator(SimpleTracer tracer) {
		this.tracer = tracer;
	}

	@Override
	public List<String> fields() {
		return List.of(TRACEPARENT);
	}

	@Override
	public <C> void inject(TraceContext context, C carrier, Setter<C> setter) {
		setter.set(carrier, TRACEPARENT, "00-" + context.traceId() + "-" + context.spanId() + "-01");
	}

	@Override
	public <C> Span.Builder extract(C carrier, Getter<C> getter) {
		String value = getter.get(carrier, TRACEPARENT);
		if (value == null) {
			return this.tracer.spanBuilder();
		}
		String[] parts = value.split("-");
		TraceContext parent = this.tracer.traceContextBuilder()
			.traceId(parts[1])
			.spanId(parts[2])
			.sampled(true)
			.build();
		return this.tracer.spanBuilder().setParent(parent);
	}

}

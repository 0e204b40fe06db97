package io.echomq.micrometer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.echomq.core.EnqueueInterceptor;
import io.echomq.core.JobId;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Observes each enqueue call as an {@link EchoMqTemplateObservation#TEMPLATE_OBSERVATION}
 * and stores the trace context on the job rows: the observation starts, with a scope
 * open, when the template collects row fields, and the propagator writes its fields (such
 * as {@code traceparent}) into them through the {@link JobSenderContext}; it stops when
 * the write succeeded or failed. A listener observing the job continues that trace.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class ObservationEnqueueInterceptor implements EnqueueInterceptor {

	private final ThreadLocal<Observed> current = new ThreadLocal<>();

	private final ObservationRegistry registry;

	private final @Nullable EchoMqTemplateObservationConvention convention;

	/**
	 * Create an interceptor.
	 * @param registry the observation registry
	 * @param convention a custom convention, or {@code null} for the default
	 */
	public ObservationEnqueueInterceptor(ObservationRegistry registry,
			@Nullable EchoMqTemplateObservationConvention convention) {
		Assert.notNull(registry, "'registry' must not be null");
		this.registry = registry;
		this.convention = convention;
	}

	@Override
	public Map<String, String> fields(String queue, Map<String, String> fields) {
		Map<String, String> carrier = new LinkedHashMap<>(fields);
		JobSenderContext context = new JobSenderContext(queue, carrier);
		Observation observation = EchoMqTemplateObservation.TEMPLATE_OBSERVATION
			.observation(this.convention, DefaultEchoMqTemplateObservationConvention.INSTANCE, () -> context,
					this.registry)
			.start();
		Observation.Scope scope = observation.openScope();
		this.current.set(new Observed(observation, scope, context, this.current.get()));
		return carrier;
	}

	@Override
	public void onEnqueued(String queue, List<JobId> ids) {
		Observed observed = pop();
		if (observed != null) {
			observed.context.setIds(ids);
			observed.scope.close();
			observed.observation.stop();
		}
	}

	@Override
	public void onFailure(String queue, Throwable error) {
		Observed observed = pop();
		if (observed != null) {
			observed.observation.error(error);
			observed.scope.close();
			observed.observation.stop();
		}
	}

	private @Nullable Observed pop() {
		Observed observed = this.current.get();
		if (observed == null) {
			return null;
		}
		if (observed.previous != null) {
			this.current.set(observed.previous);
		}
		else {
			this.current.remove();
		}
		return observed;
	}

	private record Observed(Observation observation, Observation.Scope scope, JobSenderContext context,
			@Nullable Observed previous) {

	}

}

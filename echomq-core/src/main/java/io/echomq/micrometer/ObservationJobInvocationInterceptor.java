package io.echomq.micrometer;

import io.echomq.listener.ContainerSettings;
import io.echomq.listener.JobInvocationInterceptor;
import io.echomq.listener.ReceivedJob;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Observes each handler invocation as an
 * {@link EchoMqListenerObservation#LISTENER_OBSERVATION}, with a scope open around the
 * handler. Its {@link JobReceiverContext} reads the trace context the producer stored on
 * the job row, so the handler's span continues the producer's trace.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class ObservationJobInvocationInterceptor implements JobInvocationInterceptor {

	private final ObservationRegistry registry;

	private final @Nullable EchoMqListenerObservationConvention convention;

	/**
	 * Create an interceptor.
	 * @param registry the observation registry
	 * @param convention a custom convention, or {@code null} for the default
	 */
	public ObservationJobInvocationInterceptor(ObservationRegistry registry,
			@Nullable EchoMqListenerObservationConvention convention) {
		Assert.notNull(registry, "'registry' must not be null");
		this.registry = registry;
		this.convention = convention;
	}

	@Override
	public void intercept(ReceivedJob job, ContainerSettings settings, Invocation invocation) throws Exception {
		Observation observation = EchoMqListenerObservation.LISTENER_OBSERVATION.observation(this.convention,
				DefaultEchoMqListenerObservationConvention.INSTANCE, () -> new JobReceiverContext(job, settings.id()),
				this.registry);
		observation.observeChecked(invocation::proceed);
	}

}

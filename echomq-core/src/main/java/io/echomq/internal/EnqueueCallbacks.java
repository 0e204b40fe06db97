package io.echomq.internal;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

import io.echomq.EchoMqTemplate;
import io.echomq.core.EnqueueInterceptor;
import io.echomq.core.JobId;

import org.springframework.core.log.LogAccessor;

/**
 * Runs a template's writes between its {@link EnqueueInterceptor}s, and tells its
 * callbacks what happened without letting their failures reach the caller.
 *
 * @author EchoMQ
 * @see EchoMqTemplate
 */
public final class EnqueueCallbacks {

	// the template's own category, so that a failing callback is logged as it was
	private static final LogAccessor logger = new LogAccessor(EchoMqTemplate.class);

	private final List<EnqueueInterceptor> interceptors;

	public EnqueueCallbacks(List<EnqueueInterceptor> interceptors) {
		this.interceptors = List.copyOf(interceptors);
	}

	/**
	 * Collect the row fields from every interceptor in order, write, then tell each
	 * interceptor whose {@code fields} returned, in reverse order, how the write went.
	 * @param queue the queue
	 * @param writer writes with the collected fields
	 * @param written the new job ids of a write's result
	 * @return what the writer returned
	 */
	public <T> T intercepted(String queue, Function<Map<String, String>, T> writer, Function<T, List<JobId>> written) {
		int prepared = 0;
		T result;
		try {
			Map<String, String> fields = Map.of();
			for (EnqueueInterceptor interceptor : this.interceptors) {
				fields = interceptor.fields(queue, fields);
				prepared++;
			}
			result = writer.apply(fields);
		}
		catch (RuntimeException | Error ex) {
			for (int i = prepared - 1; i >= 0; i--) {
				EnqueueInterceptor interceptor = this.interceptors.get(i);
				notify(interceptor, () -> interceptor.onFailure(queue, ex));
			}
			throw ex;
		}
		List<JobId> ids = written.apply(result);
		for (int i = prepared - 1; i >= 0; i--) {
			EnqueueInterceptor interceptor = this.interceptors.get(i);
			notify(interceptor, () -> interceptor.onEnqueued(queue, ids));
		}
		return result;
	}

	/**
	 * Run a callback, logging what it throws.
	 * @param callbackOwner the interceptor or listener, for the log
	 * @param callback the call
	 */
	public static void notify(Object callbackOwner, Runnable callback) {
		try {
			callback.run();
		}
		catch (RuntimeException ex) {
			// the write is done (or the failure is already reported): never turn a
			// callback's failure into a failure of the call
			logger.warn(ex, () -> callbackOwner.getClass().getSimpleName() + " " + callbackOwner + " failed");
		}
	}

}

package io.echomq.listener;

/**
 * Wraps each handler invocation of a container, on the worker thread, e.g. to open an
 * observation scope around it. Interceptors are applied in order, the first outermost;
 * each must call {@link Invocation#proceed()} exactly once and let what it throws
 * propagate, since that is how the container learns the attempt failed. Register them as
 * beans to have the auto-configured container factory apply them.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@FunctionalInterface
public interface JobInvocationInterceptor {

	/**
	 * Run the rest of the chain, and at its end the handler.
	 * @param job the job, as the handler receives it
	 * @param settings the settings of the container running it (listener id, queue)
	 * @param invocation the rest of the chain
	 * @throws Exception what the handler threw
	 */
	void intercept(ReceivedJob job, ContainerSettings settings, Invocation invocation) throws Exception;

	/**
	 * The rest of an interceptor chain.
	 */
	@FunctionalInterface
	interface Invocation {

		/**
		 * Proceed to the next interceptor, or the handler.
		 * @throws Exception what the handler threw
		 */
		void proceed() throws Exception;

	}

}

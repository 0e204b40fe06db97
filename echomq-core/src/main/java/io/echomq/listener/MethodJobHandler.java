package io.echomq.listener;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.support.PayloadConversionException;
import io.echomq.support.PayloadConverter;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.MethodParameter;
import org.springframework.util.Assert;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * A {@link JobHandler} that invokes a bean method. Each parameter is either the payload
 * (at most one, read from JSON into the parameter's generic type), a {@link JobContext}
 * or the {@link ReceivedJob}, in any order. A value the method returns (neither
 * {@code void} nor {@code null}) is the job's result: written with the payload converter
 * and stored by the completion (see {@code docs/results.md}); a result the converter
 * cannot write, or one over {@code echomq.results.max-size}, fails the attempt. A payload
 * that cannot be read throws {@link UnreadablePayloadException}, which dead-letters the
 * job at once; what the method itself throws is rethrown unwrapped.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class MethodJobHandler implements JobHandler {

	private final Object bean;

	private final Method method;

	private final String description;

	private final Kind[] kinds;

	private final @Nullable Type payloadType;

	private final PayloadConverter converter;

	private MethodJobHandler(Object bean, Method method, String description, Kind[] kinds, @Nullable Type payloadType,
			PayloadConverter converter) {
		this.bean = bean;
		this.method = method;
		this.description = description;
		this.kinds = kinds;
		this.payloadType = payloadType;
		this.converter = converter;
	}

	/**
	 * Create a handler, checking the method's signature.
	 * @param bean the bean, possibly a proxy
	 * @param method the method, as declared on the bean's target class
	 * @param converter the payload converter
	 * @return the handler
	 * @throws IllegalStateException if the method cannot be a job handler; the message
	 * names the method and the reason
	 */
	public static MethodJobHandler create(Object bean, Method method, PayloadConverter converter) {
		Assert.notNull(bean, "'bean' must not be null");
		Assert.notNull(method, "'method' must not be null");
		Assert.notNull(converter, "'converter' must not be null");
		String description = describe(method);
		Kind[] kinds = inspect(method, description);
		Type payloadType = null;
		for (int i = 0; i < kinds.length; i++) {
			if (kinds[i] == Kind.PAYLOAD) {
				payloadType = new MethodParameter(method, i).getGenericParameterType();
			}
		}
		Method invocable;
		try {
			invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
		}
		catch (IllegalStateException ex) {
			throw new IllegalStateException(
					"@EchoJob method " + description + " cannot be invoked on its bean: " + ex.getMessage(), ex);
		}
		ReflectionUtils.makeAccessible(invocable);
		return new MethodJobHandler(bean, invocable, description, kinds, payloadType, converter);
	}

	/**
	 * Check a method's parameters without creating a handler.
	 * @param method the method
	 * @throws IllegalStateException if the method cannot be a job handler
	 */
	public static void validate(Method method) {
		inspect(method, describe(method));
	}

	private static Kind[] inspect(Method method, String description) {
		Class<?>[] types = method.getParameterTypes();
		Kind[] kinds = new Kind[types.length];
		List<String> payloads = new ArrayList<>();
		for (int i = 0; i < types.length; i++) {
			if (types[i] == JobContext.class) {
				kinds[i] = Kind.CONTEXT;
			}
			else if (types[i] == ReceivedJob.class) {
				kinds[i] = Kind.JOB;
			}
			else if (types[i] == ClaimedJob.class) {
				throw new IllegalStateException("@EchoJob method " + description + " has a parameter of type "
						+ types[i].getName() + ", which carries the claim's fencing token: declare it as "
						+ ReceivedJob.class.getName());
			}
			else if (JobContext.class.isAssignableFrom(types[i])) {
				throw new IllegalStateException("@EchoJob method " + description + " has a parameter of type "
						+ types[i].getName() + ": declare it as " + JobContext.class.getName());
			}
			else {
				kinds[i] = Kind.PAYLOAD;
				payloads.add(ClassUtils.getShortName(types[i]) + " (parameter " + (i + 1) + ")");
			}
		}
		if (payloads.size() > 1) {
			throw new IllegalStateException("@EchoJob method " + description + " has " + payloads.size()
					+ " payload parameters " + payloads + ": at most one parameter may be the payload, the others "
					+ "must be JobContext or ReceivedJob");
		}
		return kinds;
	}

	/**
	 * Describe a method as {@code com.x.Foo#bar(String, int)}.
	 * @param method the method
	 * @return the description
	 */
	public static String describe(Method method) {
		List<String> names = new ArrayList<>();
		for (Class<?> type : method.getParameterTypes()) {
			names.add(type.getSimpleName());
		}
		return method.getDeclaringClass().getName() + "#" + method.getName() + "(" + String.join(", ", names) + ")";
	}

	@Override
	public void handle(ReceivedJob job, JobContext context) throws Exception {
		if (context instanceof LeasedJob leased) {
			leased.output().converter(this.converter);
		}
		Object[] args = new Object[this.kinds.length];
		for (int i = 0; i < this.kinds.length; i++) {
			args[i] = switch (this.kinds[i]) {
				case CONTEXT -> context;
				case JOB -> job;
				case PAYLOAD -> readPayload(job);
			};
		}
		Object result;
		try {
			result = this.method.invoke(this.bean, args);
		}
		catch (InvocationTargetException ex) {
			Throwable target = ex.getTargetException();
			if (target instanceof Exception exception) {
				throw exception;
			}
			if (target instanceof Error error) {
				throw error;
			}
			throw new IllegalStateException(target);
		}
		if (result != null && context instanceof LeasedJob leased) {
			leased.output().result(writeResult(job, result));
		}
	}

	private String writeResult(ReceivedJob job, Object result) {
		try {
			return this.converter.write(result);
		}
		catch (RuntimeException ex) {
			throw new PayloadConversionException(
					"Result of job " + job.id() + " (a " + result.getClass().getName() + " returned by "
							+ this.description + ") cannot be written by the payload converter: " + ex.getMessage(),
					ex);
		}
	}

	private Object readPayload(ReceivedJob job) {
		Type type = this.payloadType;
		Assert.state(type != null, "No payload parameter");
		Object payload;
		try {
			payload = this.converter.read(job.payload(), type);
		}
		catch (PayloadConversionException ex) {
			throw new UnreadablePayloadException(
					"Payload of job " + job.id() + " cannot be read for " + this.description + ": " + ex.getMessage(),
					ex);
		}
		if (payload == null && type instanceof Class<?> primitive && primitive.isPrimitive()) {
			throw new UnreadablePayloadException("Payload of job " + job.id() + " is null, which " + this.description
					+ " cannot take as " + primitive.getName(), new IllegalArgumentException("null payload"));
		}
		return payload;
	}

	/**
	 * Return the method invoked.
	 * @return the method
	 */
	public Method getMethod() {
		return this.method;
	}

	/**
	 * Return the bean the method is invoked on.
	 * @return the bean
	 */
	public Object getBean() {
		return this.bean;
	}

	@Override
	public String toString() {
		return this.description;
	}

	private enum Kind {

		PAYLOAD, CONTEXT, JOB

	}

}

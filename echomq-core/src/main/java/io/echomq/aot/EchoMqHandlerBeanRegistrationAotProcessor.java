package io.echomq.aot;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.LinkedHashSet;
import java.util.Set;

import io.echomq.annotation.EchoJob;
import io.echomq.annotation.EchoSchedule;
import io.echomq.listener.MethodJobHandler;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * Registers, for each bean with {@link EchoJob @EchoJob} or {@link EchoSchedule
 *
 * @EchoSchedule} methods, what the annotation post-processors use at run time: each such
 * method for invocation, an {@code @EchoJob} method's payload type and an
 * {@code @EchoSchedule} method's return type for JSON binding (the payload converter
 * reads and writes them with Jackson).
 * @author EchoMQ
 */
final class EchoMqHandlerBeanRegistrationAotProcessor implements BeanRegistrationAotProcessor {

	private final BindingReflectionHintsRegistrar bindings = new BindingReflectionHintsRegistrar();

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
		Class<?> beanClass = ClassUtils.getUserClass(registeredBean.getBeanClass());
		Set<Method> jobs = annotated(beanClass, EchoJob.class);
		Set<Method> schedules = annotated(beanClass, EchoSchedule.class);
		if (jobs.isEmpty() && schedules.isEmpty()) {
			return null;
		}
		return (generationContext, code) -> {
			ReflectionHints reflection = generationContext.getRuntimeHints().reflection();
			for (Method job : jobs) {
				reflection.registerMethod(job, ExecutableMode.INVOKE);
				Type payload = MethodJobHandler.payloadType(job);
				if (payload != null) {
					this.bindings.registerReflectionHints(reflection, payload);
				}
			}
			for (Method schedule : schedules) {
				reflection.registerMethod(schedule, ExecutableMode.INVOKE);
				if (schedule.getReturnType() != void.class) {
					this.bindings.registerReflectionHints(reflection, schedule.getGenericReturnType());
				}
			}
		};
	}

	private static Set<Method> annotated(Class<?> beanClass, Class<? extends Annotation> type) {
		return new LinkedHashSet<>(MethodIntrospector
			.selectMethods(beanClass,
					(MethodIntrospector.MetadataLookup<Object>) (method) -> AnnotatedElementUtils
						.findMergedAnnotation(method, type))
			.keySet());
	}

}

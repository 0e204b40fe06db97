package io.echomq.annotation;

import java.lang.reflect.Method;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.echomq.schedule.DeclaredSchedule;
import io.echomq.schedule.InvalidScheduleException;
import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleOrigin;
import io.echomq.schedule.ScheduleSpec;
import io.echomq.support.PayloadConverter;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * Finds {@link EchoSchedule @EchoSchedule} methods and keeps them as declared schedules,
 * validated as each bean is initialized: an invalid cron expression, unknown zone,
 * non-positive interval, invalid queue or name fails the start-up with a message naming
 * the value.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoScheduleAnnotationBeanPostProcessor implements BeanPostProcessor, BeanFactoryAware, Ordered {

	/** The bean name this post-processor is registered under. */
	public static final String BEAN_NAME = "io.echomq.config.internalEchoScheduleAnnotationProcessor";

	private final List<Found> found = new ArrayList<>();

	private @Nullable ConfigurableBeanFactory beanFactory;

	@Override
	public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
		if (beanFactory instanceof ConfigurableBeanFactory configurable) {
			this.beanFactory = configurable;
		}
	}

	@Override
	public int getOrder() {
		return LOWEST_PRECEDENCE;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		if (bean instanceof AopInfrastructureBean) {
			return bean;
		}
		Class<?> target = AopUtils.getTargetClass(bean);
		Map<Method, EchoSchedule> methods = MethodIntrospector.selectMethods(target,
				(MethodIntrospector.MetadataLookup<EchoSchedule>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, EchoSchedule.class));
		methods.forEach((method, annotation) -> {
			Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
			Found declaration = declare(bean, target, invocable, annotation);
			synchronized (this.found) {
				this.found.add(declaration);
			}
		});
		return bean;
	}

	/**
	 * Return the schedules found so far.
	 * @param converter converts constant payloads
	 * @return the declarations
	 */
	public List<DeclaredSchedule> getDeclarations(PayloadConverter converter) {
		List<DeclaredSchedule> declarations = new ArrayList<>();
		synchronized (this.found) {
			for (Found declaration : this.found) {
				ScheduleDefinition definition = new ScheduleDefinition(declaration.queue(), declaration.name(),
						declaration.spec(),
						(declaration.supplier() != null) ? "" : converter.write(declaration.payload()),
						ScheduleOrigin.ANNOTATION);
				declarations.add(new DeclaredSchedule(definition, declaration.supplier(), declaration.source()));
			}
		}
		return declarations;
	}

	private Found declare(Object bean, Class<?> target, Method method, EchoSchedule annotation) {
		String source = "@EchoSchedule method " + target.getName() + "." + method.getName();
		if (method.getParameterCount() > 0) {
			throw new InvalidScheduleException(
					source + " must take no parameters, takes " + method.getParameterCount());
		}
		String name = resolve(annotation.name());
		if (!StringUtils.hasText(name)) {
			name = target.getSimpleName() + "." + method.getName();
		}
		String queue = resolve(annotation.queue());
		try {
			ScheduleDefinition.validateName(name);
			ScheduleDefinition.validateQueue(name, queue);
			String cron = resolve(annotation.cron());
			String every = resolve(annotation.every());
			String zone = resolve(annotation.zone());
			ZoneId zoneId = StringUtils.hasText(zone) ? ScheduleSpec.zone(zone.trim()) : ZoneOffset.UTC;
			ScheduleSpec spec = new ScheduleSpec(StringUtils.hasText(cron) ? cron : null,
					StringUtils.hasText(every) ? parseEvery(every.trim()) : null, zoneId, annotation.misfire(),
					(annotation.catchUp() != 0) ? annotation.catchUp() : ScheduleSpec.DEFAULT_CATCH_UP,
					annotation.overlap(), instant("start", resolve(annotation.start())),
					instant("end", resolve(annotation.end())));
			Supplier<@Nullable Object> supplier = null;
			if (method.getReturnType() != void.class) {
				ReflectionUtils.makeAccessible(method);
				supplier = () -> ReflectionUtils.invokeMethod(method, bean);
			}
			return new Found(queue, name, spec, resolve(annotation.payload()), supplier, source);
		}
		catch (InvalidScheduleException ex) {
			throw new InvalidScheduleException(source + ": " + ex.getMessage(), ex);
		}
	}

	private static @Nullable Instant instant(String attribute, String value) {
		if (!StringUtils.hasText(value)) {
			return null;
		}
		try {
			return Instant.parse(value.trim());
		}
		catch (DateTimeParseException ex) {
			throw new InvalidScheduleException(
					"Invalid schedule " + attribute + "='" + value + "': " + ex.getMessage() + " (ISO-8601 instant)",
					ex);
		}
	}

	private static Duration parseEvery(String every) {
		try {
			return DurationFormatterUtils.detectAndParse(every);
		}
		catch (RuntimeException ex) {
			throw new InvalidScheduleException("Invalid schedule interval every='" + every + "': " + ex.getMessage(),
					ex);
		}
	}

	private String resolve(String value) {
		if (this.beanFactory == null || !StringUtils.hasText(value)) {
			return value;
		}
		String resolved = this.beanFactory.resolveEmbeddedValue(value);
		return (resolved != null) ? resolved : "";
	}

	private record Found(String queue, String name, ScheduleSpec spec, String payload,
			@Nullable Supplier<@Nullable Object> supplier, String source) {

	}

}

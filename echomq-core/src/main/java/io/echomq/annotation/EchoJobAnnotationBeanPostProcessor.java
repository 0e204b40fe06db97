package io.echomq.annotation;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import io.echomq.core.EchoMqException;
import io.echomq.core.Keyspace;
import io.echomq.crypto.QueueEncryption;
import io.echomq.listener.EchoJobListenerEndpoint;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.ListenerSettings;
import io.echomq.listener.MethodJobHandler;
import io.echomq.support.PayloadConverter;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanExpressionContext;
import org.springframework.beans.factory.config.BeanExpressionResolver;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.EnvironmentAware;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.env.Environment;
import org.springframework.core.log.LogAccessor;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.scheduling.TaskScheduler;
import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * Finds {@link EchoJob @EchoJob} methods on beans and registers a listener for each with
 * the {@link EchoJobListenerRegistry}. Signatures and attributes are checked as each bean
 * is initialized; the listeners are registered once every singleton exists (or at once,
 * for a bean created later). A bad signature, a bad attribute value or a second listener
 * on one queue fails the start-up, naming the method.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoJobAnnotationBeanPostProcessor
		implements BeanPostProcessor, SmartInitializingSingleton, BeanFactoryAware, EnvironmentAware, Ordered {

	/** The bean name this post-processor is registered under. */
	public static final String BEAN_NAME = "io.echomq.config.internalEchoJobAnnotationProcessor";

	private static final LogAccessor logger = new LogAccessor(EchoJobAnnotationBeanPostProcessor.class);

	private final Set<Class<?>> nonAnnotatedClasses = ConcurrentHashMap.newKeySet();

	private final ReentrantLock lock = new ReentrantLock();

	private final List<Endpoint> pending = new ArrayList<>();

	private @Nullable ConfigurableListableBeanFactory beanFactory;

	private @Nullable BeanExpressionResolver expressionResolver;

	private @Nullable BeanExpressionContext expressionContext;

	private @Nullable Environment environment;

	private boolean initialized;

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		if (beanFactory instanceof ConfigurableListableBeanFactory configurable) {
			this.beanFactory = configurable;
			this.expressionResolver = configurable.getBeanExpressionResolver();
			this.expressionContext = new BeanExpressionContext(configurable, null);
		}
	}

	@Override
	public void setEnvironment(Environment environment) {
		this.environment = environment;
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
		if (bean instanceof AopInfrastructureBean || bean instanceof TaskScheduler
				|| bean instanceof ScheduledExecutorService) {
			return bean;
		}
		Class<?> targetClass = AopUtils.getTargetClass(bean);
		if (this.nonAnnotatedClasses.contains(targetClass)) {
			return bean;
		}
		if (!AnnotationUtils.isCandidateClass(targetClass, EchoJob.class)) {
			this.nonAnnotatedClasses.add(targetClass);
			return bean;
		}
		Map<Method, EchoJob> annotated = MethodIntrospector.selectMethods(targetClass,
				(MethodIntrospector.MetadataLookup<EchoJob>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, EchoJob.class));
		if (annotated.isEmpty()) {
			this.nonAnnotatedClasses.add(targetClass);
			return bean;
		}
		List<Endpoint> endpoints = new ArrayList<>();
		annotated.forEach((method, annotation) -> endpoints.add(createEndpoint(bean, beanName, method, annotation)));
		this.lock.lock();
		try {
			if (this.initialized) {
				endpoints.forEach(this::register);
			}
			else {
				this.pending.addAll(endpoints);
			}
		}
		finally {
			this.lock.unlock();
		}
		return bean;
	}

	@Override
	public void afterSingletonsInstantiated() {
		this.lock.lock();
		try {
			this.initialized = true;
			checkOneListenerPerQueue(this.pending);
			this.pending.forEach(this::register);
			this.pending.clear();
		}
		finally {
			this.lock.unlock();
		}
	}

	private Endpoint createEndpoint(Object bean, String beanName, Method method, EchoJob annotation) {
		String description = MethodJobHandler.describe(method);
		MethodJobHandler.validate(method);
		Attributes attributes = new Attributes(description);
		String queue = attributes.resolve("queue", annotation.queue(), Function.identity());
		if (queue == null) {
			throw new IllegalStateException("@EchoJob method " + description + " names no queue");
		}
		try {
			Keyspace.validateQueueName(queue);
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("@EchoJob method " + description + ": " + ex.getMessage(), ex);
		}
		ListenerSettings settings = ListenerSettings.builder()
			.id(attributes.resolve("id", annotation.id(), Function.identity()))
			.concurrency(attributes.resolve("concurrency", annotation.concurrency(), Integer::valueOf))
			.lease(attributes.resolve("lease", annotation.lease(), DurationFormatterUtils::detectAndParse))
			.maxAttempts(attributes.resolve("maxAttempts", annotation.maxAttempts(), Integer::valueOf))
			.backoffInitial(attributes.resolve("backoffInitial", annotation.backoffInitial(),
					DurationFormatterUtils::detectAndParse))
			.backoffMultiplier(attributes.resolve("backoffMultiplier", annotation.backoffMultiplier(), Double::valueOf))
			.backoffMax(
					attributes.resolve("backoffMax", annotation.backoffMax(), DurationFormatterUtils::detectAndParse))
			.backoffJitter(attributes.resolve("backoffJitter", annotation.backoffJitter(), Double::valueOf))
			.autoStartup(attributes.resolve("autoStartup", annotation.autoStartup(), Attributes::parseBoolean))
			.retryFor((annotation.retryFor().length > 0) ? List.of(annotation.retryFor()) : null)
			.noRetryFor((annotation.noRetryFor().length > 0) ? List.of(annotation.noRetryFor()) : null)
			.timeout(attributes.resolve("timeout", annotation.timeout(), DurationFormatterUtils::detectAndParse))
			.build();
		return new Endpoint(bean, beanName, method, description, queue, settings);
	}

	private void checkOneListenerPerQueue(List<Endpoint> endpoints) {
		Map<String, Endpoint> byQueue = new LinkedHashMap<>();
		for (Endpoint endpoint : endpoints) {
			Endpoint previous = byQueue.putIfAbsent(endpoint.queue(), endpoint);
			if (previous != null) {
				throw new IllegalStateException("Queue '" + endpoint.queue() + "' has two @EchoJob listeners, "
						+ previous.description() + " (bean '" + previous.beanName() + "') and " + endpoint.description()
						+ " (bean '" + endpoint.beanName() + "'): a queue has one listener per application");
			}
		}
	}

	private void register(Endpoint endpoint) {
		ConfigurableListableBeanFactory factory = this.beanFactory;
		Assert.state(factory != null, "No bean factory");
		EchoJobListenerRegistry registry = factory.getBeanProvider(EchoJobListenerRegistry.class).getIfUnique();
		PayloadConverter converter = factory.getBeanProvider(PayloadConverter.class).getIfUnique();
		if (registry == null || converter == null) {
			throw new IllegalStateException("@EchoJob method " + endpoint.description() + " needs a unique "
					+ ((registry == null) ? "EchoJobListenerRegistry" : "PayloadConverter")
					+ " bean; is EchoMQ auto-configuration enabled?");
		}
		try {
			QueueEncryption encryption = registry.getEncryption();
			registry.register(EchoJobListenerEndpoint.of(endpoint.queue(), MethodJobHandler.create(endpoint.bean(),
					endpoint.method(), encryption.sealing(endpoint.queue(), converter)), endpoint.settings()));
		}
		catch (IllegalArgumentException | EchoMqException ex) {
			throw new IllegalStateException(
					"@EchoJob method " + endpoint.description() + " has invalid settings: " + ex.getMessage(), ex);
		}
		logger.debug(
				() -> "Registered @EchoJob method " + endpoint.description() + " on queue '" + endpoint.queue() + "'");
	}

	private record Endpoint(Object bean, String beanName, Method method, String description, String queue,
			ListenerSettings settings) {

	}

	/**
	 * Resolves attribute values: placeholders, then SpEL, then the conversion.
	 */
	private final class Attributes {

		private final String description;

		Attributes(String description) {
			this.description = description;
		}

		<T> @Nullable T resolve(String name, String value, Function<String, T> conversion) {
			if (!StringUtils.hasText(value)) {
				return null;
			}
			String text;
			try {
				text = evaluate(value);
			}
			catch (RuntimeException ex) {
				throw new IllegalStateException("@EchoJob method " + this.description + ": attribute '" + name + "' ("
						+ value + ") cannot be resolved: " + ex.getMessage(), ex);
			}
			if (!StringUtils.hasText(text)) {
				return null;
			}
			try {
				return conversion.apply(text.trim());
			}
			catch (RuntimeException ex) {
				throw new IllegalStateException("@EchoJob method " + this.description + ": attribute '" + name
						+ "' value '" + text + "' is invalid: " + ex.getMessage(), ex);
			}
		}

		private @Nullable String evaluate(String value) {
			ConfigurableListableBeanFactory factory = EchoJobAnnotationBeanPostProcessor.this.beanFactory;
			String resolved = value;
			if (factory != null) {
				resolved = factory.resolveEmbeddedValue(value);
			}
			else if (EchoJobAnnotationBeanPostProcessor.this.environment != null) {
				resolved = EchoJobAnnotationBeanPostProcessor.this.environment.resolveRequiredPlaceholders(value);
			}
			BeanExpressionResolver resolver = EchoJobAnnotationBeanPostProcessor.this.expressionResolver;
			BeanExpressionContext context = EchoJobAnnotationBeanPostProcessor.this.expressionContext;
			Object evaluated = (resolver != null && resolved != null) ? resolver.evaluate(resolved, context) : resolved;
			if (evaluated instanceof Duration duration) {
				return duration.toString();
			}
			return (evaluated != null) ? evaluated.toString() : null;
		}

		static Boolean parseBoolean(String text) {
			if ("true".equalsIgnoreCase(text)) {
				return Boolean.TRUE;
			}
			if ("false".equalsIgnoreCase(text)) {
				return Boolean.FALSE;
			}
			throw new IllegalArgumentException("expected true or false");
		}

	}

}

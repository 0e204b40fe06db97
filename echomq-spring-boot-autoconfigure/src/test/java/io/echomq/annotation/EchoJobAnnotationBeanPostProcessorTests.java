package io.echomq.annotation;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.echomq.EchoMqTemplate;
import io.echomq.autoconfigure.EchoJobListenerContainerFactoryConfigurer;
import io.echomq.listener.ContainerSettings;
import io.echomq.listener.EchoJobListenerContainerFactory;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.JobContext;
import io.echomq.listener.ListenerTestSupport;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.listener.ReceivedJob;
import io.echomq.maintenance.internal.EchoMqMaintenance;
import io.echomq.test.TestServer;
import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;

import org.springframework.aop.framework.ProxyFactory;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.TaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests of {@link EchoJobAnnotationBeanPostProcessor}: discovery, attribute resolution
 * and start-up failures.
 *
 * @author EchoMQ
 */
class EchoJobAnnotationBeanPostProcessorTests {

	private static final TestServer server = ListenerTestSupport.sharedServer();

	private ApplicationContextRunner runner() {
		return ListenerTestSupport.runner(server, ListenerTestSupport.uniquePrefix());
	}

	@Test
	void twoPayloadParametersFailStartUpNamingTheMethod() {
		runner().withBean(TwoPayloads.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(messages(context.getStartupFailure()))
				.contains(TwoPayloads.class.getName() + "#handle(String, int)")
				.contains("2 payload parameters");
		});
	}

	@Test
	void twoListenersOnOneQueueFailStartUpNamingBothMethods() {
		runner().withBean(FirstOnShared.class).withBean(SecondOnShared.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(messages(context.getStartupFailure())).contains("Queue 'shared' has two @EchoJob listeners")
				.contains(FirstOnShared.class.getName() + "#handle(String)")
				.contains(SecondOnShared.class.getName() + "#handle(String)");
		});
	}

	@Test
	void invalidAttributeFailsStartUpNamingTheMethodAndAttribute() {
		runner().withBean(BadLease.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(messages(context.getStartupFailure())).contains(BadLease.class.getName() + "#handle(String)")
				.contains("attribute 'lease' value 'soon'");
		});
	}

	@Test
	void invalidQueueNameFailsStartUp() {
		runner().withBean(BadQueue.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(messages(context.getStartupFailure())).contains(BadQueue.class.getName() + "#handle(String)")
				.contains("Invalid EchoMQ queue name 'no:colons'");
		});
	}

	@Test
	void privateMethodOnProxiedBeanFailsStartUp() {
		runner().withUserConfiguration(PrivateProxyConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(messages(context.getStartupFailure())).contains("cannot be invoked on its bean");
			assertThat(messages(context.getStartupFailure()))
				.contains(PrivateOnProxy.class.getName() + "#handle(String)");
		});
	}

	@Test
	void placeholdersAndExpressionsAreResolved() {
		runner().withBean(Placeholders.class)
			.withPropertyValues("app.queue=from-placeholder", "app.concurrency=3")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				EchoJobListenerRegistry registry = context.getBean(EchoJobListenerRegistry.class);
				assertThat(registry.getQueues()).containsExactly("from-placeholder");
				ContainerSettings settings = registry.getContainer("from-placeholder").getSettings();
				assertThat(settings.concurrency()).isEqualTo(3);
				assertThat(settings.lease()).isEqualTo(Duration.ofMillis(2500));
				assertThat(settings.id()).isEqualTo("placeholder-listener");
				assertThat(settings.backoff().initial()).isEqualTo(Duration.ofSeconds(5));
				assertThat(context.getBean(EchoMqMaintenance.class).isRunning()).isTrue();
			});
	}

	@Test
	void annotationWinsOverQueuePropertiesWhichWinOverListenerDefaults() {
		runner().withBean(Precedence.class)
			.withPropertyValues("echomq.listener.concurrency=7", "echomq.listener.lease=45s",
					"echomq.listener.max-attempts=9", "echomq.queues.precedence.lease=20s",
					"echomq.queues.precedence.concurrency=5")
			.run((context) -> {
				ContainerSettings settings = context.getBean(EchoJobListenerRegistry.class)
					.getContainer("precedence")
					.getSettings();
				assertThat(settings.concurrency()).isEqualTo(2);
				assertThat(settings.lease()).isEqualTo(Duration.ofSeconds(20));
				assertThat(settings.maxAttempts()).isNull();
				assertThat(settings.autoStartup()).isFalse();
				assertThat(context.getBean(EchoJobListenerRegistry.class).getContainer("precedence").isRunning())
					.isFalse();
			});
	}

	@Test
	void proxiedBeanIsInvokedThroughTheProxyAndMetaAnnotationsWork() {
		runner().withUserConfiguration(ProxyConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed();
			context.getBean(EchoMqTemplate.class).enqueue("proxied", "hello");
			Proxied target = context.getBean(ProxyConfiguration.class).target;
			assertThat(target.payloads.poll(10, TimeUnit.SECONDS)).isEqualTo("hello:proxied:1");
			assertThat(context.getBean(ProxyConfiguration.class).intercepted.get()).isEqualTo(1);
			QueueListenerContainer container = context.getBean(EchoJobListenerRegistry.class).getContainer("proxied");
			assertThat(container.getSettings().concurrency()).isEqualTo(1);
		});
	}

	@Test
	void listenerInfrastructureIsAutoConfiguredWithoutATaskSchedulerBean() {
		runner().run((context) -> {
			assertThat(context).hasBean(EchoJobAnnotationBeanPostProcessor.BEAN_NAME)
				.hasSingleBean(EchoJobListenerRegistry.class)
				.hasSingleBean(EchoMqMaintenance.class)
				.hasSingleBean(EchoJobListenerContainerFactoryConfigurer.class)
				.hasBean("echoJobListenerContainerFactory")
				.doesNotHaveBean(TaskScheduler.class);
			assertThat(context.getBean(EchoJobListenerRegistry.class).getPhase())
				.isGreaterThan(context.getBean(EchoMqMaintenance.class).getPhase());
		});
	}

	@Test
	void userRegistryBacksTheAutoConfiguredOneOff() {
		runner().withUserConfiguration(UserRegistryConfiguration.class).withBean(Precedence.class).run((context) -> {
			assertThat(context).getBean(EchoJobListenerRegistry.class)
				.isSameAs(context.getBean(UserRegistryConfiguration.class).registry);
			assertThat(context.getBean(EchoJobListenerRegistry.class).getQueues()).containsExactly("precedence");
		});
	}

	@Test
	void disabledEchoMqRegistersNoListeners() {
		runner().withBean(Placeholders.class)
			.withPropertyValues("echomq.enabled=false", "app.queue=q")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(EchoJobListenerRegistry.class);
				assertThat(context).doesNotHaveBean(EchoJobAnnotationBeanPostProcessor.BEAN_NAME);
			});
	}

	private static String messages(Throwable failure) {
		StringBuilder messages = new StringBuilder();
		for (Throwable current = failure; current != null; current = current.getCause()) {
			messages.append(current.getMessage()).append(System.lineSeparator());
		}
		return messages.toString();
	}

	static class TwoPayloads {

		@EchoJob(queue = "two")
		void handle(String first, int second) {
		}

	}

	static class FirstOnShared {

		@EchoJob(queue = "shared")
		void handle(String payload) {
		}

	}

	static class SecondOnShared {

		@EchoJob(queue = "shared")
		void handle(String payload) {
		}

	}

	static class BadLease {

		@EchoJob(queue = "bad-lease", lease = "soon")
		void handle(String payload) {
		}

	}

	static class BadQueue {

		@EchoJob(queue = "no:colons")
		void handle(String payload) {
		}

	}

	static class Placeholders {

		@EchoJob(queue = "${app.queue}", concurrency = "${app.concurrency}", lease = "#{2000 + 500}",
				id = "placeholder-listener", backoffInitial = "PT5S")
		void handle(JobContext context, String payload) {
		}

	}

	static class Precedence {

		@EchoJob(queue = "precedence", concurrency = "2", autoStartup = "false")
		void handle(String payload) {
		}

	}

	@Target(ElementType.METHOD)
	@Retention(RetentionPolicy.RUNTIME)
	@EchoJob(queue = "proxied", concurrency = "1")
	@interface ProxiedJob {

	}

	static class Proxied {

		final BlockingQueue<String> payloads = new LinkedBlockingQueue<>();

		@ProxiedJob
		public void handle(String payload, ReceivedJob job, JobContext context) {
			this.payloads.add(payload + ":" + job.queue() + ":" + context.attempt());
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class ProxyConfiguration {

		final Proxied target = new Proxied();

		final AtomicInteger intercepted = new AtomicInteger();

		@Bean
		Object proxied() {
			ProxyFactory factory = new ProxyFactory(this.target);
			factory.setProxyTargetClass(true);
			factory.addAdvice((MethodInterceptor) (invocation) -> {
				this.intercepted.incrementAndGet();
				return invocation.proceed();
			});
			return factory.getProxy();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserRegistryConfiguration {

		EchoJobListenerRegistry registry;

		@Bean
		EchoJobListenerRegistry userRegistry(EchoJobListenerContainerFactory factory) {
			this.registry = new EchoJobListenerRegistry(factory);
			return this.registry;
		}

	}

	static class PrivateOnProxy {

		@EchoJob(queue = "private")
		private void handle(String payload) {
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrivateProxyConfiguration {

		@Bean
		Object privateOnProxy() {
			ProxyFactory factory = new ProxyFactory(new PrivateOnProxy());
			factory.setProxyTargetClass(true);
			factory.addAdvice((MethodInterceptor) (invocation) -> invocation.proceed());
			return factory.getProxy();
		}

	}

}

package io.echomq.aot;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import io.echomq.annotation.EchoJob;
import io.echomq.annotation.EchoSchedule;
import io.echomq.listener.JobContext;
import org.junit.jupiter.api.Test;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hints an application gets when Spring AOT processes it with EchoMQ on the class
 * path: the processing runs as {@code spring-boot:process-aot} runs it, through
 * {@code META-INF/spring/aot.factories}.
 *
 * @author EchoMQ
 */
class EchoMqRuntimeHintsTests {

	@Test
	void everyScriptAndIncludeIsARegisteredResource() throws IOException {
		RuntimeHints hints = process(new GenericApplicationContext());
		Resource[] scripts = new PathMatchingResourcePatternResolver()
			.getResources("classpath*:io/echomq/core/scripts/**/*.lua");
		List<String> names = Arrays.stream(scripts).map(EchoMqRuntimeHintsTests::path).toList();
		assertThat(names).contains("io/echomq/core/scripts/claim.lua",
				"io/echomq/core/scripts/includes/claim_rows.lua");
		assertThat(names).allSatisfy(
				(name) -> assertThat(RuntimeHintsPredicates.resource().forResource(name)).as(name).accepts(hints));
	}

	@Test
	void jobHandlerMethodsAndTheirPayloadTypesAreRegistered() {
		GenericApplicationContext context = new GenericApplicationContext();
		context.registerBean("signupJobs", SignupJobs.class);
		RuntimeHints hints = process(context);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(SignupJobs.class, "welcome")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(SignupJobs.class, "digest")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Signup.class)).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Address.class)).as("nested in the payload")
			.accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Signup.class, "email")).accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(Digest.class)).as("a schedule's payload").accepts(hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(JobContext.class)).as("not a payload").rejects(hints);
	}

	@Test
	void beansWithoutHandlersAddNoReflectionHints() {
		GenericApplicationContext context = new GenericApplicationContext();
		context.registerBean("plain", PlainService.class);
		RuntimeHints hints = process(context);
		assertThat(RuntimeHintsPredicates.reflection().onType(Signup.class)).rejects(hints);
	}

	private static RuntimeHints process(GenericApplicationContext context) {
		DefaultGenerationContext generation = new DefaultGenerationContext(
				new ClassNameGenerator(ClassName.get(EchoMqRuntimeHintsTests.class)), new InMemoryGeneratedFiles());
		new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
		return generation.getRuntimeHints();
	}

	private static String path(Resource resource) {
		try {
			String url = resource.getURL().toString();
			return url.substring(url.indexOf("io/echomq/core/scripts/"));
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	record Address(String city) {
	}

	record Signup(String email, Address address) {
	}

	record Digest(int day) {
	}

	static class PlainService {

		void welcome(Signup signup) {
		}

	}

	static class SignupJobs {

		@EchoJob(queue = "welcome")
		void welcome(Signup signup, JobContext context) {
		}

		@EchoSchedule(queue = "digest", every = "1h")
		Digest digest() {
			return new Digest(1);
		}

	}

}

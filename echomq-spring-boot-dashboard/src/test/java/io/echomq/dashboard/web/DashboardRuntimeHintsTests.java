package io.echomq.dashboard.web;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import io.echomq.dashboard.JobItem;
import io.echomq.dashboard.JobPage;
import io.echomq.dashboard.Overview;
import io.echomq.dashboard.QueueSummary;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.core.io.support.SpringFactoriesLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's hints, loaded from {@code META-INF/spring/aot.factories} as Spring AOT
 * loads them.
 *
 * @author EchoMQ
 */
class DashboardRuntimeHintsTests {

	private final RuntimeHints hints = registered();

	@Test
	void everyPageAndAssetIsARegisteredResource() throws IOException {
		Resource[] files = new PathMatchingResourcePatternResolver()
			.getResources("classpath*:" + DashboardPage.LOCATION + "*");
		List<String> names = Arrays.stream(files).map(Resource::getFilename).toList();
		assertThat(names).contains("index.html", "app.js", "app.css");
		assertThat(names).allSatisfy(
				(name) -> assertThat(RuntimeHintsPredicates.resource().forResource(DashboardPage.LOCATION + name))
					.as(name)
					.accepts(this.hints));
	}

	@Test
	void jsonResponsesAndWhatTheyHoldAreRegisteredForBinding() {
		assertThat(RuntimeHintsPredicates.reflection().onType(Overview.class)).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(QueueSummary.class, "name"))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(JobPage.class)).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(JobItem.class)).as("nested in a page")
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(EchoMqDashboardRoutes.ActionResponse.class))
			.accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection().onType(EchoMqDashboardRoutes.ErrorResponse.class))
			.accepts(this.hints);
	}

	private static RuntimeHints registered() {
		RuntimeHints hints = new RuntimeHints();
		SpringFactoriesLoader.forResourceLocation("META-INF/spring/aot.factories")
			.load(RuntimeHintsRegistrar.class)
			.forEach((registrar) -> registrar.registerHints(hints, DashboardRuntimeHintsTests.class.getClassLoader()));
		return hints;
	}

}

package io.echomq.devservices;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import org.springframework.boot.loader.launch.StandInLaunchedClassLoader;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RunContext#detect()}.
 *
 * @author EchoMQ
 */
class RunContextTests {

	private final RunContext runContext = RunContext.detect();

	private final ClassLoader classLoader = getClass().getClassLoader();

	@Test
	void junitTestIsATest() {
		assertThat(this.runContext.inTest(this.classLoader)).isTrue();
	}

	@Test
	void threadWithoutATestRunnerOnItsStackIsNotATest() throws InterruptedException {
		AtomicBoolean inTest = new AtomicBoolean(true);
		Thread thread = new Thread(() -> inTest.set(this.runContext.inTest(this.classLoader)));
		thread.start();
		thread.join();
		assertThat(inTest).isFalse();
	}

	@Test
	void classPathWithoutJunitIsNotATest() throws Exception {
		try (URLClassLoader bare = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader())) {
			assertThat(this.runContext.inTest(bare)).isFalse();
		}
	}

	@Test
	void applicationClassLoaderIsNotPackaged() {
		assertThat(this.runContext.packaged(this.classLoader)).isFalse();
	}

	@Test
	void classLoaderOfSpringBootsLauncherIsPackaged() throws Exception {
		try (StandInLaunchedClassLoader launched = new StandInLaunchedClassLoader(this.classLoader);
				URLClassLoader child = new URLClassLoader(new URL[0], launched)) {
			assertThat(this.runContext.packaged(launched)).isTrue();
			assertThat(this.runContext.packaged(child)).isTrue();
		}
	}

}

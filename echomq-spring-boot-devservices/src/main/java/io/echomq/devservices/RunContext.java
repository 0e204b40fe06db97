package io.echomq.devservices;

import java.util.List;

import org.springframework.util.ClassUtils;

/**
 * How the application runs: in a test, or from a packaged jar or war. Answers from the
 * class loader and the current thread's stack, as Spring Boot's Docker Compose and
 * DevTools support do.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
interface RunContext {

	/**
	 * Return whether the application runs in a test.
	 * @param classLoader the application's class loader
	 * @return {@code true} with JUnit on the class path and a test runner on the stack
	 */
	boolean inTest(ClassLoader classLoader);

	/**
	 * Return whether the application runs from a packaged jar or war, launched by Spring
	 * Boot's loader.
	 * @param classLoader the application's class loader
	 * @return {@code true} if that loader launched it
	 */
	boolean packaged(ClassLoader classLoader);

	/**
	 * Return the context that inspects the real class loader and stack.
	 * @return the detecting context
	 */
	static RunContext detect() {
		return Detected.INSTANCE;
	}

	/**
	 * Reads the class loader and the current thread's stack.
	 */
	final class Detected implements RunContext {

		static final Detected INSTANCE = new Detected();

		private static final List<String> TEST_CLASSES = List.of("org.junit.jupiter.api.Test", "org.junit.Test");

		private static final List<String> TEST_STACK_PREFIXES = List.of("org.junit.runners.", "org.junit.platform.",
				"org.springframework.boot.test.", "cucumber.runtime.");

		private static final String LOADER_PREFIX = "org.springframework.boot.loader.";

		private Detected() {
		}

		@Override
		public boolean inTest(ClassLoader classLoader) {
			return TEST_CLASSES.stream().anyMatch((name) -> ClassUtils.isPresent(name, classLoader))
					&& onStack(TEST_STACK_PREFIXES);
		}

		@Override
		public boolean packaged(ClassLoader classLoader) {
			for (ClassLoader candidate = classLoader; candidate != null; candidate = candidate.getParent()) {
				if (candidate.getClass().getName().startsWith(LOADER_PREFIX)) {
					return true;
				}
			}
			return onStack(List.of(LOADER_PREFIX));
		}

		private static boolean onStack(List<String> prefixes) {
			for (StackTraceElement element : Thread.currentThread().getStackTrace()) {
				for (String prefix : prefixes) {
					if (element.getClassName().startsWith(prefix)) {
						return true;
					}
				}
			}
			return false;
		}

	}

}

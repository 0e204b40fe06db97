package io.echomq.support.internal;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.junit.jupiter.api.Test;

import org.springframework.core.log.LogAccessor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RateLimitedLog}, on a clock of the test's own.
 *
 * @author EchoMQ
 */
class RateLimitedLogTests {

	private final List<String> lines = new CopyOnWriteArrayList<>();

	private final AtomicLong now = new AtomicLong();

	@Test
	void growingIntervalWritesOneLinePerStepThenOneWhenRecovered() {
		RateLimitedLog log = new RateLimitedLog(recording(), Duration.ofSeconds(1), Duration.ofSeconds(8),
				this.now::get);
		// a failure every 100 ms for 20 s: lines at 0, 1, 3, 7, 15 s
		for (int tenth = 0; tenth < 200; tenth++) {
			this.now.set(Duration.ofMillis(tenth * 100L).toNanos());
			log.warn(null, () -> "down");
		}
		assertThat(this.lines).hasSize(5).allMatch((line) -> line.startsWith("WARN down"));
		assertThat(this.lines.get(1)).isEqualTo("WARN down (9 similar messages suppressed)");
		assertThat(this.lines.get(4)).isEqualTo("WARN down (79 similar messages suppressed)");
		log.recovered(() -> "back");
		log.recovered(() -> "back");
		assertThat(this.lines).hasSize(6).last().isEqualTo("INFO back");
		// after the recovery the interval starts again at its first length
		log.warn(null, () -> "down");
		this.now.addAndGet(Duration.ofSeconds(1).toNanos());
		log.warn(null, () -> "down");
		assertThat(this.lines).hasSize(8);
	}

	@Test
	void fixedIntervalStaysTheSameAndRecoveredWithoutWarningsSaysNothing() {
		RateLimitedLog log = new RateLimitedLog(recording(), Duration.ofSeconds(10), Duration.ofSeconds(10),
				this.now::get);
		log.recovered(() -> "back");
		for (int second = 0; second < 40; second++) {
			this.now.set(Duration.ofSeconds(second).toNanos());
			log.warn(null, () -> "down");
		}
		assertThat(this.lines).hasSize(4);
	}

	private LogAccessor recording() {
		Log log = (Log) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { Log.class },
				(proxy, method, args) -> {
					String name = method.getName();
					if (name.startsWith("is")) {
						return name.equals("isWarnEnabled") || name.equals("isInfoEnabled");
					}
					if (name.equals("warn") || name.equals("info")) {
						this.lines.add(name.toUpperCase() + " " + args[0]);
					}
					return null;
				});
		return new LogAccessor(log);
	}

}

package io.echomq;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.echomq.core.EnqueueInterceptor;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.EnqueueResult;
import io.echomq.core.JobId;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.KeyType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.transaction.support.TransactionSynchronizationManager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Unique enqueues through {@link EchoMqTemplate} on a real server.
 *
 * @author EchoMQ
 */
class EchoMqTemplateUniqueTests {

	@RegisterExtension
	final EngineConnection engine = EngineConnection.toSharedServer("t-");

	private EchoMqTemplate template;

	private final List<String> heard = new ArrayList<>();

	@BeforeEach
	void setUp() {
		EnqueueInterceptor interceptor = new EnqueueInterceptor() {

			@Override
			public Map<String, String> fields(String queue, Map<String, String> fields) {
				return Map.of("origin", "test");
			}

			@Override
			public void onEnqueued(String queue, List<JobId> ids) {
				EchoMqTemplateUniqueTests.this.heard.add("enqueued " + ids.size());
			}

		};
		this.template = this.engine.template(1024, 4, List.of(interceptor));
	}

	@Test
	void enqueueUniqueShouldSayWhetherItMadeAJob() {
		EnqueueOptions options = EnqueueOptions.defaults().withUniqueKey("order-1");
		EnqueueResult first = this.template.enqueueUnique(this.engine.queue(), Map.of("order", 1), options);
		EnqueueResult second = this.template.enqueueUnique(this.engine.queue(), Map.of("order", 2), options);
		assertThat(first.outcome()).isEqualTo(EnqueueResult.Outcome.CREATED);
		assertThat(second.outcome()).isEqualTo(EnqueueResult.Outcome.DUPLICATE);
		assertThat(second.id()).isEqualTo(first.id());
		assertThat(this.template.enqueue(this.engine.queue(), "third", options)).isEqualTo(first.id());
		assertThat(this.engine.redis()
			.<String, String>opsForHash()
			.entries(Keyspace.defaults().jobKey(this.engine.queue(), first.id())))
			.containsEntry("payload", "{\"order\":1}")
			.containsEntry("origin", "test")
			.containsEntry("max_attempts", "4");
		assertThat(this.heard).containsExactly("enqueued 1", "enqueued 0", "enqueued 0");
	}

	@Test
	void debounceThroughTheTemplateShouldKeepTheLastPayload() {
		EnqueueOptions options = EnqueueOptions.defaults().withDebounce("search-index", Duration.ofMinutes(1));
		JobId id = this.template.enqueue(this.engine.queue(), "v1", options);
		EnqueueResult last = this.template.enqueueUnique(this.engine.queue(), "v2", options);
		assertThat(last.outcome()).isEqualTo(EnqueueResult.Outcome.DEBOUNCED);
		assertThat(last.id()).isEqualTo(id);
		assertThat(this.engine.redis().opsForHash().get(Keyspace.defaults().jobKey(this.engine.queue(), id), "payload"))
			.isEqualTo("\"v2\"");
	}

	@Test
	void badUniqueOptionsShouldBeRefusedNamingTheValue() {
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueOptions.defaults().withUniqueKey("tenant:7"))
			.withMessageContaining("'tenant:7'");
		assertThatIllegalArgumentException().isThrownBy(() -> EnqueueOptions.defaults().withUniqueKey("{q}"))
			.withMessageContaining("'{q}'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EnqueueOptions.defaults().withThrottle("t", Duration.ofMillis(-5)))
			.withMessageContaining("PT-0.005S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> EnqueueOptions.defaults().withDebounce("t", Duration.ZERO))
			.withMessageContaining("PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.enqueueUnique(this.engine.queue(), "x", EnqueueOptions.defaults()))
			.withMessageContaining("unique key");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.template.enqueueAll(this.engine.queue(), List.of("a", "b"),
					EnqueueOptions.defaults().withUniqueKey("k")))
			.withMessageContaining("'k'");
		assertThat(
				this.engine.redis().hasKey(Keyspace.defaults().queueKey(this.engine.queue(), KeyType.PENDING.suffix())))
			.isFalse();
		assertThat(this.engine.redis().keys("emq:{" + this.engine.queue() + "}:*")).isEmpty();
	}

	@Test
	void enqueueUniqueShouldRefuseToBeDeferredToACommit() {
		TransactionSynchronizationManager.initSynchronization();
		TransactionSynchronizationManager.setActualTransactionActive(true);
		try {
			EnqueueOptions options = EnqueueOptions.defaults().withUniqueKey("k");
			assertThatIllegalStateException()
				.isThrownBy(() -> this.template.enqueueUnique(this.engine.queue(), "x", options))
				.withMessageContaining("withAfterCommit(false)");
			EnqueueResult now = this.template.enqueueUnique(this.engine.queue(), "x", options.withAfterCommit(false));
			assertThat(now.duplicate()).isFalse();
		}
		finally {
			TransactionSynchronizationManager.setActualTransactionActive(false);
			TransactionSynchronizationManager.clearSynchronization();
		}
	}

}

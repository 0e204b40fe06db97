package io.echomq.autoconfigure;

import java.util.List;
import java.util.Map;

import io.echomq.EchoMqTemplate;
import io.echomq.actuate.EchoMqEndpoint;
import io.echomq.actuate.EchoMqHealthIndicator;
import io.echomq.actuate.JobDescriptors;
import io.echomq.actuate.JobDescriptors.AuditDescriptor;
import io.echomq.actuate.QueueDescriptors.QueueDescriptor;
import io.echomq.core.EnqueueOptions;
import io.echomq.core.InvalidPartitionException;
import io.echomq.core.JobId;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.Engine;
import io.echomq.micrometer.EchoMqQueueMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The endpoint, the queue gauges and the health indicator show a partitioned queue as the
 * sums over its partitions, and each partition, against a real Valkey server.
 *
 * @author EchoMQ
 */
class PartitionedQueueObservabilityTests {

	private final ApplicationContextRunner contextRunner = ObservabilityTestSupport
		.runner(MetricsAutoConfiguration.class, EchoMqMetricsAutoConfiguration.class,
				EchoMqEndpointAutoConfiguration.class, EchoMqHealthContributorAutoConfiguration.class)
		.withUserConfiguration(SimpleRegistryConfiguration.class)
		.withPropertyValues("echomq.queues.split.partitions=3", "management.endpoints.web.exposure.include=echomq");

	@Test
	void partitionedQueueIsShownAsSumsAndPerPartition() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			EchoMqTemplate template = context.getBean(EchoMqTemplate.class);
			QueuePartitions partitions = context.getBean(QueuePartitioning.class).forQueue("split");
			List<JobId> ids = template.enqueueAll("split", List.of("a", "b", "c", "d", "e", "f"));
			Engine jobs = context.getBean(Engine.class);
			JobId doomed = ids.get(0);
			String doomedPartition = partitions.nameOf(doomed);
			List<ClaimedJob> claimed = jobs.claims().claim(doomedPartition, java.time.Duration.ofSeconds(30), 2);
			ClaimedJob first = claimed.stream().filter((job) -> job.id().equals(doomed)).findFirst().orElseThrow();
			jobs.outcomes().deadLetter(doomedPartition, doomed, first.token(), "boom");

			EchoMqEndpoint endpoint = context.getBean(EchoMqEndpoint.class);
			QueueDescriptor queue = endpoint.queue("split");
			assertThat(queue.pending() + queue.active()).isEqualTo(5);
			assertThat(queue.dead()).isEqualTo(1);
			assertThat(queue.counters()).containsEntry("enqueued", 6L);
			assertThat(queue.partitions()).hasSize(3).containsOnlyKeys(partitions.names());
			assertThat(queue.partitions().values())
				.allSatisfy((each) -> assertThat(each.counters()).containsEntry("enqueued", 2L));
			assertThat(queue.partitions().get(doomedPartition).dead()).isEqualTo(1);
			assertThat(endpoint.dead("split", 0, 10, false).jobs()).singleElement()
				.satisfies((job) -> assertThat(job.id()).isEqualTo(doomed.toString()));
			assertThat(endpoint.replay("split", doomed.toString()).replayed()).isTrue();
			assertThatExceptionOfType(InvalidPartitionException.class)
				.isThrownBy(() -> endpoint.replay("split", JobId.mint(7).toString()))
				.withMessageContaining("names partition 7");
			AuditDescriptor audit = endpoint.audit("split");
			assertThat(audit.partitions()).hasSize(3);
			assertThat(audit.counts().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(6);

			EchoMqQueueMetrics metrics = context.getBean(EchoMqQueueMetrics.class);
			metrics.sample();
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.get("echomq.queue.jobs").tag("queue", "split").tag("state", "pending").gauge().value()
					+ meters.get("echomq.queue.jobs").tag("queue", "split").tag("state", "active").gauge().value())
				.isEqualTo(6.0);
			assertThat(meters.get("echomq.queue.partition.jobs").tag("queue", "split").tag("state", "pending").gauges())
				.hasSize(3);

			Health health = context.getBean(EchoMqHealthIndicator.class).health(true);
			@SuppressWarnings("unchecked")
			Map<String, Object> split = (Map<String, Object>) ((Map<String, Object>) health.getDetails().get("queues"))
				.get("split");
			assertThat(split).containsKey("partitions");
			assertThat((Map<?, ?>) split.get("partitions")).hasSize(3);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class SimpleRegistryConfiguration {

		@Bean
		SimpleMeterRegistry simpleMeterRegistry() {
			return new SimpleMeterRegistry();
		}

	}

}

package io.echomq.autoconfigure;

import java.util.List;

import io.echomq.core.EchoMqEngine;
import io.echomq.core.EchoMqNode;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.internal.Engine;
import io.echomq.events.JobEventStreamContainer;
import io.echomq.events.JobEventStreamCounters;
import io.echomq.events.JobEventStreamListener;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the job event listeners: one {@link JobEventStreamContainer} that
 * reads the event stream of each {@link JobEventStreamListener} bean's queue, as the
 * {@link EchoMqNode} bean's name: one consumer per copy of the application.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
@AutoConfiguration(after = { EchoMqAutoConfiguration.class, EchoMqMetricsAutoConfiguration.class })
@ConditionalOnBean({ EchoMqEngine.class, JobEventStreamListener.class })
public final class EchoMqEventsAutoConfiguration {

	EchoMqEventsAutoConfiguration() {
	}

	@Bean
	@ConditionalOnMissingBean
	JobEventStreamContainer echoMqJobEventStreamContainer(EchoMqEngine engine,
			ObjectProvider<QueuePartitioning> partitioning, ObjectProvider<JobEventStreamListener> listeners,
			ObjectProvider<JobEventStreamCounters> counters, ObjectProvider<EchoMqNode> node) {
		List<JobEventStreamCounters> all = counters.orderedStream().toList();
		JobEventStreamCounters fanOut = new JobEventStreamCounters() {

			@Override
			public void onRead(JobEventStreamListener listener, long count) {
				all.forEach((each) -> each.onRead(listener, count));
			}

			@Override
			public void onGap(JobEventStreamListener listener, long missed) {
				all.forEach((each) -> each.onGap(listener, missed));
			}

		};
		Engine jobs = Engine.of(engine);
		JobEventStreamContainer container = new JobEventStreamContainer(jobs.executor().getTemplate(),
				jobs.events()::key, listeners.orderedStream().toList(), fanOut);
		QueuePartitioning partitions = partitioning.getIfAvailable(QueuePartitioning::none);
		container.setPartitions((queue) -> partitions.forQueue(queue).names());
		node.ifAvailable((each) -> container.setInstance(each.name()));
		return container;
	}

}

package io.echomq.internal;

import java.util.function.BiFunction;

import io.echomq.core.EnqueueOptions;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.internal.Batches;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.Enqueues;
import io.echomq.core.internal.Flows;

/**
 * What the template's writers of flows and batches are given: the engine's enqueues,
 * flows and batches, the queues' partitioning, the payload serializer and the conversion
 * of a queue's options to a spec.
 *
 * @author EchoMQ
 */
public abstract class TemplateWrites {

	final Enqueues enqueues;

	final Flows flows;

	final Batches batches;

	final QueuePartitioning partitioning;

	final BiFunction<String, Object, String> serializer;

	final BiFunction<String, EnqueueOptions, EnqueueSpec> specs;

	public TemplateWrites(Enqueues enqueues, Flows flows, Batches batches, QueuePartitioning partitioning,
			BiFunction<String, Object, String> serializer, BiFunction<String, EnqueueOptions, EnqueueSpec> specs) {
		this.enqueues = enqueues;
		this.flows = flows;
		this.batches = batches;
		this.partitioning = partitioning;
		this.serializer = serializer;
		this.specs = specs;
	}

}

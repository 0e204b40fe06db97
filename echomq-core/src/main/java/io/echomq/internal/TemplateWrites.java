package io.echomq.internal;

import java.util.function.BiFunction;

import io.echomq.core.EnqueueOptions;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.EnqueueSpec;

/**
 * What the template's writers of flows and batches are given: the engine, the queues'
 * partitioning, the payload serializer and the conversion of a queue's options to a spec.
 *
 * @author EchoMQ
 */
public abstract class TemplateWrites {

	final Engine engine;

	final QueuePartitioning partitioning;

	final BiFunction<String, Object, String> serializer;

	final BiFunction<String, EnqueueOptions, EnqueueSpec> specs;

	public TemplateWrites(Engine engine, QueuePartitioning partitioning, BiFunction<String, Object, String> serializer,
			BiFunction<String, EnqueueOptions, EnqueueSpec> specs) {
		this.engine = engine;
		this.partitioning = partitioning;
		this.serializer = serializer;
		this.specs = specs;
	}

}

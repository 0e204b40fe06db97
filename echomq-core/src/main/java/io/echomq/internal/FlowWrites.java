package io.echomq.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BiFunction;

import io.echomq.core.EnqueueOptions;
import io.echomq.core.JobId;
import io.echomq.core.JobRef;
import io.echomq.core.PartialEnqueueException;
import io.echomq.core.QueuePartitioning;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.Batches;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.core.internal.Enqueues;
import io.echomq.core.internal.Flows;
import io.echomq.flow.ChildFailure;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import org.jspecify.annotations.Nullable;

/**
 * How the template writes a flow: the whole tree checked and its payloads written by the
 * converter first (nothing is written when any of it is wrong), then each parent before
 * its children, depth first, so that no child can finish before its parent exists.
 *
 * @author EchoMQ
 */
public final class FlowWrites extends TemplateWrites {

	/** Most levels of a flow, the root included. */
	public static final int MAX_DEPTH = 16;

	/** Most children of one parent. */
	public static final int MAX_CHILDREN = 1000;

	/** Most jobs of one flow. */
	public static final int MAX_JOBS = 10_000;

	public FlowWrites(Enqueues enqueues, Flows flows, Batches batches, QueuePartitioning partitioning,
			BiFunction<String, Object, String> serializer, BiFunction<String, EnqueueOptions, EnqueueSpec> specs) {
		super(enqueues, flows, batches, partitioning, serializer, specs);
	}

	/**
	 * Check a flow and mint its ids, writing nothing.
	 * @param spec the flow
	 * @return the jobs to write, parents before their children
	 */
	public List<Node> plan(FlowSpec spec) {
		List<Node> order = new ArrayList<>();
		plan(spec, null, ChildFailure.FAIL_PARENT, 1, order);
		return order;
	}

	private Node plan(FlowSpec spec, @Nullable Node parentNode, ChildFailure policy, int depth, List<Node> order) {
		String queue = spec.queue();
		if (depth > MAX_DEPTH) {
			throw new IllegalArgumentException(
					"A flow has at most " + MAX_DEPTH + " levels; a job of queue '" + queue + "' is deeper");
		}
		if (order.size() >= MAX_JOBS) {
			throw new IllegalArgumentException("A flow has at most " + MAX_JOBS + " jobs");
		}
		EnqueueOptions options = spec.options();
		if (options.unique() != null) {
			throw new IllegalArgumentException("A job of a flow (queue '" + queue + "') cannot have a unique key");
		}
		boolean parent = !spec.children().isEmpty();
		if (parent && (options.delay() != null || options.runAt() != null || options.lane() != null)) {
			throw new IllegalArgumentException("A parent of a flow (queue '" + queue
					+ "') runs when its children have finished: it cannot have a delay, a run-at or a lane");
		}
		if (spec.children().size() > MAX_CHILDREN) {
			throw new IllegalArgumentException("A parent of a flow (queue '" + queue + "') has at most " + MAX_CHILDREN
					+ " children, was " + spec.children().size());
		}
		String text = this.serializer.apply(queue, spec.payload());
		QueuePartitions partitions = this.partitioning.forQueue(queue);
		JobId id;
		String engineQueue = queue;
		if (partitions.isPartitioned()) {
			int partition = route(partitions, options);
			id = JobId.mint(partition);
			engineQueue = partitions.name(partition);
		}
		else {
			id = JobId.mint();
		}
		Map<String, String> parentOf = (parentNode != null)
				? Flows.childFields(engineQueue, parentNode.engineQueue(), parentNode.id(), policy) : Map.of();
		Node node = new Node(queue, engineQueue, id, text, this.specs.apply(queue, options), parentOf,
				new ArrayList<>());
		order.add(node);
		for (FlowSpec.Child child : spec.children()) {
			node.children().add(plan(child.spec(), node, child.onFailure(), depth + 1, order));
		}
		return node;
	}

	/**
	 * The partition of a job of a partitioned queue: its partition key's, else its lane's
	 * (as an enqueue routes it), else any, at random.
	 */
	private static int route(QueuePartitions partitions, EnqueueOptions options) {
		String key = (options.partitionKey() != null) ? options.partitionKey() : options.lane();
		return (key != null) ? partitions.partitionForKey(key)
				: ThreadLocalRandom.current().nextInt(partitions.count());
	}

	/**
	 * Write a planned flow, parents first.
	 * @param order the plan
	 * @throws PartialEnqueueException if a write failed after others had applied: the
	 * jobs written stay, named with their queues (a parent whose children were not all
	 * written waits until it is cancelled or deleted: {@code EchoMqAdmin.discard})
	 */
	public void write(List<Node> order) {
		List<JobRef> written = new ArrayList<>(order.size());
		for (Node node : order) {
			try {
				if (node.children().isEmpty()) {
					this.flows.enqueueChild(node.engineQueue(), node.id(), node.text(), node.spec(), node.parentOf(),
							this.enqueues);
				}
				else {
					List<String> children = node.children()
						.stream()
						.map((child) -> child.engineQueue() + "/" + child.id())
						.toList();
					this.flows.createParent(node.engineQueue(), node.id(), node.text(), node.spec(), children,
							node.parentOf());
				}
			}
			catch (RuntimeException ex) {
				if (written.isEmpty()) {
					throw ex;
				}
				throw new PartialEnqueueException(order.get(0).queue(), order.size(), written, null, 0,
						List.of(node.id()), ex);
			}
			written.add(new JobRef(node.queue(), node.id()));
		}
	}

	public static FlowJob job(Node node) {
		return new FlowJob(node.queue(), node.id(), node.children().stream().map(FlowWrites::job).toList());
	}

	/**
	 * A job of a planned flow.
	 *
	 * @param queue its queue
	 * @param engineQueue its queue's partition where it is written ({@code queue} when
	 * the queue is not partitioned)
	 * @param id its id
	 * @param text its payload text
	 * @param spec how it is enqueued
	 * @param parentOf the fields naming its parent, empty for the root
	 * @param children its children
	 */
	public record Node(String queue, String engineQueue, JobId id, String text, EnqueueSpec spec,
			Map<String, String> parentOf, List<Node> children) {

	}

}

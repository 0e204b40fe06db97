package io.echomq.inspect;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import io.echomq.core.EchoMqEngine;
import io.echomq.core.EchoMqNode;
import io.echomq.core.Experimental;
import io.echomq.core.Keyspace;
import io.echomq.core.QueuePartitions;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.KeyType;
import io.echomq.core.internal.Replies;
import io.echomq.core.internal.Script;
import io.echomq.core.internal.ScriptExecutor;

import org.springframework.util.Assert;

/**
 * Each queue's registry of the nodes listening to it ({@link KeyType#NODES}): running
 * containers {@linkplain #beat(String, NodeListener) beat} into it, a stopping one
 * {@linkplain #leave(String, EchoMqNode) leaves} it, and dashboards
 * {@linkplain #live(String) read} it. One script call each, on server time: an entry
 * {@value NodeListener#MISSED_BEATS} intervals old is dead, hidden by readers and deleted
 * by the next beat.
 * <p>
 * A partitioned queue keeps its registry under its logical name: one entry per node
 * whatever the number of partitions.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
@Experimental
public class QueueNodes {

	private static final Script NODES = Script.load("nodes");

	private final Keyspace keyspace;

	private final ScriptExecutor executor;

	/**
	 * Create the registry access of an engine.
	 * @param engine the engine whose keyspace holds the registries
	 */
	public QueueNodes(EchoMqEngine engine) {
		Engine jobs = Engine.of(engine);
		this.keyspace = jobs.keyspace();
		this.executor = jobs.executor();
	}

	/**
	 * Write a node's listener of a queue, stamped with server time, and delete the dead
	 * entries of other nodes.
	 * @param queue the queue (its logical name when partitioned)
	 * @param listener the listener; its {@code seen} is ignored
	 * @return how many dead entries were deleted
	 */
	public long beat(String queue, NodeListener listener) {
		Assert.notNull(listener, "'listener' must not be null");
		List<Object> reply = this.executor.execute(NODES, key(queue),
				List.of("beat", listener.node(), Long.toString(listener.every().toMillis()), listener.summary()));
		return Replies.number(reply.get(0));
	}

	/**
	 * Delete a node's entry of a queue.
	 * @param queue the queue (its logical name when partitioned)
	 * @param node the node
	 * @return whether it had one
	 */
	public boolean leave(String queue, EchoMqNode node) {
		Assert.notNull(node, "'node' must not be null");
		List<Object> reply = this.executor.execute(NODES, key(queue), List.of("leave", node.name()));
		return Replies.number(reply.get(0)) > 0;
	}

	/**
	 * Return the live listeners of a queue, by node name: entries that are dead on server
	 * time, or unreadable, are left out.
	 * @param queue the queue (its logical name when partitioned)
	 * @return the listeners
	 */
	public List<NodeListener> live(String queue) {
		List<Object> reply = this.executor.execute(NODES, key(queue), List.of("list"));
		Instant now = Replies.instant(reply.get(0));
		List<Object> entries = Replies.list(reply.get(1));
		List<NodeListener> live = new ArrayList<>(entries.size() / 2);
		for (int i = 0; i + 1 < entries.size(); i += 2) {
			NodeListener listener = NodeListener.parse(Replies.string(entries.get(i)),
					Replies.string(entries.get(i + 1)));
			if (listener != null && listener.isAlive(now)) {
				live.add(listener);
			}
		}
		live.sort(Comparator.comparing(NodeListener::node));
		return live;
	}

	private List<String> key(String queue) {
		QueuePartitions.validateEngineName(queue);
		return List.of(this.keyspace.queueKey(queue, KeyType.NODES.suffix()));
	}

}

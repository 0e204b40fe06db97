package io.echomq.flow;

import java.util.ArrayList;
import java.util.List;

import io.echomq.EchoMqOperations;
import io.echomq.core.EnqueueOptions;

import org.springframework.util.Assert;

/**
 * A flow to enqueue with {@link EchoMqOperations#flow(FlowSpec)}: a job and, when it has
 * children, the jobs that must finish before it runs. A child may have children of its
 * own, and may be in another queue (so on another cluster slot). Immutable; each
 * {@code child} method returns a copy.
 *
 * <pre class="code">
 * FlowJob flow = template.flow(FlowSpec.job("welcome", new Welcome(user))
 *     .child(FlowSpec.job("mail", new Mail(user)))
 *     .child(FlowSpec.job("avatar", new Avatar(user)), ChildFailure.IGNORE));
 * </pre>
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class FlowSpec {

	private final String queue;

	private final Object payload;

	private final EnqueueOptions options;

	private final List<Child> children;

	private FlowSpec(String queue, Object payload, EnqueueOptions options, List<Child> children) {
		this.queue = queue;
		this.payload = payload;
		this.options = options;
		this.children = children;
	}

	/**
	 * Start a flow node: a job of {@code queue} with {@code payload}.
	 * @param queue the queue
	 * @param payload the payload, written by the template's converter
	 * @return the node, without children
	 */
	public static FlowSpec job(String queue, Object payload) {
		Assert.notNull(queue, "'queue' must not be null");
		Assert.notNull(payload, () -> "Payload for queue '" + queue + "' must not be null");
		return new FlowSpec(queue, payload, EnqueueOptions.defaults(), List.of());
	}

	/**
	 * Return a copy enqueued with these options (attempts, priority, timeout; a child
	 * without children may also have a delay or a lane). A unique key or a partition key
	 * is refused when the flow is enqueued.
	 * @param options the options
	 * @return the new node
	 */
	public FlowSpec options(EnqueueOptions options) {
		Assert.notNull(options, "'options' must not be null");
		return new FlowSpec(this.queue, this.payload, options, this.children);
	}

	/**
	 * Return a copy with one more child whose death dead-letters this job
	 * ({@link ChildFailure#FAIL_PARENT}).
	 * @param child the child
	 * @return the new node
	 */
	public FlowSpec child(FlowSpec child) {
		return child(child, ChildFailure.FAIL_PARENT);
	}

	/**
	 * Return a copy with one more child.
	 * @param child the child
	 * @param onFailure what the child's death does to this job
	 * @return the new node
	 */
	public FlowSpec child(FlowSpec child, ChildFailure onFailure) {
		Assert.notNull(child, "'child' must not be null");
		Assert.notNull(onFailure, "'onFailure' must not be null");
		List<Child> more = new ArrayList<>(this.children);
		more.add(new Child(child, onFailure));
		return new FlowSpec(this.queue, this.payload, this.options, List.copyOf(more));
	}

	/**
	 * Return the queue.
	 * @return the queue
	 */
	public String queue() {
		return this.queue;
	}

	/**
	 * Return the payload.
	 * @return the payload
	 */
	public Object payload() {
		return this.payload;
	}

	/**
	 * Return the options.
	 * @return the options
	 */
	public EnqueueOptions options() {
		return this.options;
	}

	/**
	 * Return the children, in the order they were added.
	 * @return the children
	 */
	public List<Child> children() {
		return this.children;
	}

	@Override
	public String toString() {
		return "FlowSpec[queue=" + this.queue + ", children=" + this.children.size() + "]";
	}

	/**
	 * A child of a flow node and what its death does to the node.
	 *
	 * @param spec the child
	 * @param onFailure what its death does to its parent
	 */
	public record Child(FlowSpec spec, ChildFailure onFailure) {

	}

}

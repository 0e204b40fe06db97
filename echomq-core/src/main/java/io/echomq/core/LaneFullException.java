package io.echomq.core;

/**
 * Thrown when an enqueue into a lane would leave more jobs in the lane's pending set than
 * its {@linkplain io.echomq.EchoMqAdmin#setLanePendingCap pending cap} allows. The
 * enqueue script checks the cap before its first write, so none of the call's jobs was
 * written: with a cap of {@code C}, exactly {@code C} jobs are accepted however many
 * producers race.
 *
 * @author EchoMQ
 * @since 0.5.0
 */
public class LaneFullException extends EchoMqException {

	private final String queue;

	private final String lane;

	private final long size;

	private final long cap;

	/**
	 * Create a new exception.
	 * @param queue the queue
	 * @param lane the lane
	 * @param size the jobs the lane's pending set held
	 * @param cap the lane's pending cap
	 * @param refused the jobs the refused call would have added
	 * @param cause the server's error
	 */
	public LaneFullException(String queue, String lane, long size, long cap, long refused, Throwable cause) {
		super("Lane '" + lane + "' of queue '" + queue + "' holds " + size + " pending jobs of its cap of " + cap + ": "
				+ refused + " more refused, nothing was written", cause);
		this.queue = queue;
		this.lane = lane;
		this.size = size;
		this.cap = cap;
	}

	/**
	 * Return the queue.
	 * @return the queue name (the logical queue of a partition)
	 */
	public String getQueue() {
		return this.queue;
	}

	/**
	 * Return the lane.
	 * @return the lane key
	 */
	public String getLane() {
		return this.lane;
	}

	/**
	 * Return how many jobs the lane's pending set held when the enqueue was refused.
	 * @return the size
	 */
	public long getSize() {
		return this.size;
	}

	/**
	 * Return the lane's pending cap.
	 * @return the cap
	 */
	public long getCap() {
		return this.cap;
	}

}

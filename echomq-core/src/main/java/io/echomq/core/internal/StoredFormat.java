package io.echomq.core.internal;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.echomq.core.UnsupportedFormatException;

/**
 * The stored format of each queue (or partition): the layout of its rows and keys, kept
 * in {@code <prefix>:{<queue>}:meta} (field {@code format}). A queue with no stored
 * format was written before formats were recorded, in format 1, and the first use records
 * that. A node checks a queue once, the first time it writes to it or starts listening to
 * it, and remembers the answer, so an enqueue costs no extra round trip; a queue whose
 * format it does not read is refused with an {@link UnsupportedFormatException}, nothing
 * written.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public final class StoredFormat extends EnginePart {

	/** The format this release writes. */
	public static final int CURRENT = 1;

	/** The formats this release reads. */
	public static final List<Integer> READS = List.of(1);

	private static final Script SCRIPT = Script.load("format");

	private final Map<String, Integer> checked = new ConcurrentHashMap<>();

	StoredFormat(EngineState state) {
		super(state);
	}

	/**
	 * Check a queue's stored format the first time this engine uses the queue, recording
	 * format {@value #CURRENT} when none is stored.
	 * @param queue the queue (or partition) name
	 * @return the queue's format
	 * @throws UnsupportedFormatException if the stored format is one this release does
	 * not read, or not an integer (nothing was written)
	 * @throws io.echomq.core.InvalidQueueNameException if the queue name is not valid
	 */
	public int check(String queue) {
		Integer known = this.checked.get(queue);
		if (known != null) {
			return known;
		}
		String key = this.state.keys(queue).meta();
		List<Object> reply = this.executor.execute(SCRIPT, List.of(key), List.of(Integer.toString(CURRENT)));
		String outcome = Replies.string(reply.get(0));
		String stored = Replies.string(reply.get(1));
		if ("malformed".equals(outcome)) {
			throw new UnsupportedFormatException("Queue '" + queue + "' stores format '" + stored + "' in " + key
					+ ", which is not a format (an integer >= 1); this EchoMQ reads format(s) " + READS
					+ ". Fix or delete the field; nothing was written");
		}
		int format = Integer.parseInt(stored);
		if (!READS.contains(format)) {
			throw new UnsupportedFormatException("Queue '" + queue + "' is stored in format " + format + " (" + key
					+ "), but this EchoMQ reads format(s) " + READS + " only: it was written by a newer release. "
					+ "Upgrade this node, or move the queue back to a format it reads; nothing was written");
		}
		this.checked.put(queue, format);
		return format;
	}

}

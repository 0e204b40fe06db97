package io.echomq.inspect;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.echomq.core.EchoMqEngine;
import io.echomq.core.Experimental;
import io.echomq.core.JobId;
import io.echomq.core.Keyspace;
import io.echomq.core.internal.Batches;
import io.echomq.core.internal.Engine;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * Reads batches (docs/flows.md#batches) for dashboards and endpoints: one batch's row,
 * and the open and sealed batches of a queue from its {@code batches} location (at most
 * {@value #MAX_LISTED}). A batch's row counts its jobs but does not list them; a job of a
 * batch names it as its flow parent. Reads only; never part of a transition.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
@Experimental
public class BatchView {

	/** Most batches one listing reads. */
	public static final int MAX_LISTED = 50;

	private static final List<String> KINDS = List.of("success", "complete", "death");

	private final Batches batches;

	/**
	 * Create a reader.
	 * @param engine the engine whose keyspace is read
	 */
	public BatchView(EchoMqEngine engine) {
		this.batches = Engine.of(engine).batches();
	}

	/**
	 * Read one batch.
	 * @param queue the batch's home queue
	 * @param id the batch id
	 * @return the batch, or {@code null} when its home queue has no row for it (never
	 * written, or finished more than a day ago)
	 */
	public @Nullable Batch read(String queue, JobId id) {
		Keyspace.validateQueueName(queue);
		Assert.notNull(id, "'id' must not be null");
		Map<String, String> row = this.batches.status(queue, id);
		String state = row.get("state");
		if (state == null) {
			return null;
		}
		long total = number(row.get("total"));
		long completed = number(row.get("completed"));
		long dead = number(row.get("dead"));
		List<Callback> callbacks = new ArrayList<>(KINDS.size());
		for (String kind : KINDS) {
			String target = row.get("on_" + kind);
			int slash = (target != null) ? target.lastIndexOf('/') : -1;
			if (target != null && slash > 0) {
				callbacks.add(new Callback(kind, target.substring(0, slash), target.substring(slash + 1), target,
						row.get("fired:" + kind)));
			}
		}
		String createdAt = row.get("created_at");
		String finishedAt = row.get("finished_at");
		return new Batch(queue, id.toString(), state, total, Math.max(0, total - completed - dead), completed, dead,
				(createdAt != null) ? number(createdAt) : null, (finishedAt != null) ? number(finishedAt) : null,
				callbacks);
	}

	/**
	 * List the open and sealed batches of a queue, oldest first.
	 * @param queue the batches' home queue
	 * @return the first {@value #MAX_LISTED} batches and how many there are
	 */
	public Listing list(String queue) {
		Keyspace.validateQueueName(queue);
		long count = this.batches.listedCount(queue);
		List<Batch> batches = new ArrayList<>();
		for (String id : (count > 0) ? this.batches.listed(queue, MAX_LISTED) : List.<String>of()) {
			Batch batch = JobId.isValid(id) ? read(queue, JobId.parse(id)) : null;
			batches.add((batch != null) ? batch : new Batch(queue, id, "missing", 0, 0, 0, 0, null, null, List.of()));
		}
		return new Listing(queue, count, batches, count > batches.size());
	}

	private static long number(@Nullable String value) {
		try {
			return (value != null) ? Long.parseLong(value) : 0;
		}
		catch (NumberFormatException ex) {
			return 0;
		}
	}

	/**
	 * One batch.
	 *
	 * @param queue its home queue
	 * @param id its id
	 * @param state {@code open}, {@code sealed} or {@code finished}; in a listing,
	 * {@code missing} when the location names a batch without a row
	 * @param total the jobs added
	 * @param pending the jobs not finished yet
	 * @param completed the jobs completed
	 * @param dead the jobs dead
	 * @param createdAt when it was opened (epoch millis)
	 * @param finishedAt when it finished (epoch millis), or {@code null}
	 * @param callbacks its callbacks
	 */
	public record Batch(String queue, String id, String state, long total, long pending, long completed, long dead,
			@Nullable Long createdAt, @Nullable Long finishedAt, List<Callback> callbacks) {

	}

	/**
	 * A callback of a batch: a job waiting for it.
	 *
	 * @param kind {@code success}, {@code complete} or {@code death}
	 * @param queue the callback's queue
	 * @param id the callback's id
	 * @param ref {@code <queue>/<id>}
	 * @param fired {@code null} until the batch called for it, then {@code completed}
	 * (moved to pending) or {@code skipped} (retired, never runs)
	 */
	public record Callback(String kind, String queue, String id, String ref, @Nullable String fired) {

	}

	/**
	 * The open and sealed batches of a queue.
	 *
	 * @param queue the home queue
	 * @param count how many there are
	 * @param batches the first {@value #MAX_LISTED}, oldest first
	 * @param truncated whether some were not read
	 */
	public record Listing(String queue, long count, List<Batch> batches, boolean truncated) {

	}

}

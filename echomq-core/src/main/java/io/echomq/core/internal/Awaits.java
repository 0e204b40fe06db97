package io.echomq.core.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.echomq.core.JobId;
import org.jspecify.annotations.Nullable;

/**
 * The callers of this JVM awaiting jobs' outcomes, as the engine holds them: the
 * {@link Waiters} are made, and their Pub/Sub connection opened, by the first await, and
 * closed by {@link #close()}; an await after that makes new ones.
 *
 * @author EchoMQ
 */
public final class Awaits {

	private final EngineState state;

	private final Object lock = new Object();

	private @Nullable Waiters waiters;

	Awaits(EngineState state) {
		this.state = state;
	}

	/**
	 * Await a job's outcome, as {@link Waiters#await(String, JobId, Duration)} does.
	 * @param queue the queue (or partition) name
	 * @param id the job id
	 * @param timeout how long to wait at most
	 * @return a future completed with the result as the payload converter wrote it
	 */
	public CompletableFuture<@Nullable String> await(String queue, JobId id, Duration timeout) {
		return waiters().await(queue, id, timeout);
	}

	/**
	 * Return the waiters, made now if none are open.
	 * @return the waiters
	 */
	public Waiters waiters() {
		synchronized (this.lock) {
			Waiters waiters = this.waiters;
			if (waiters == null) {
				waiters = new Waiters(this.state);
				this.waiters = waiters;
			}
			return waiters;
		}
	}

	void close() {
		Waiters waiters;
		synchronized (this.lock) {
			waiters = this.waiters;
			this.waiters = null;
		}
		if (waiters != null) {
			waiters.close();
		}
	}

}

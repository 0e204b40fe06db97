package io.echomq.core;

/**
 * What an enqueue with a {@link UniqueKey} did.
 *
 * @param id the job that holds the key now: the new job, or the one that already held it
 * @param outcome whether a job was created, or the key's holder was found (and, for
 * debounce, updated)
 * @author EchoMQ
 * @since 0.1.0
 */
public record EnqueueResult(JobId id, Outcome outcome) {

	/**
	 * Return whether the enqueue found the key held and made no new job.
	 * @return {@code true} for {@link Outcome#DUPLICATE} and {@link Outcome#DEBOUNCED}
	 */
	public boolean duplicate() {
		return this.outcome != Outcome.CREATED;
	}

	/**
	 * What the enqueue did.
	 */
	public enum Outcome {

		/** A new job was written and holds the key. */
		CREATED,

		/** The key was held; nothing was written. {@code id} is the holder. */
		DUPLICATE,

		/**
		 * The key was held by a waiting job (debounce): its payload was replaced and its
		 * run-at pushed back. {@code id} is that job.
		 */
		DEBOUNCED

	}

}

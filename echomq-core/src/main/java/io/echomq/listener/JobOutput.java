package io.echomq.listener;

import io.echomq.core.JobId;
import io.echomq.core.internal.Results;
import io.echomq.support.PayloadConversionException;
import io.echomq.support.PayloadConverter;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * What one run of a job reports besides its outcome: the result its handler returned
 * (written with the method's payload converter and checked against the size cap), and the
 * text of its progress objects. The {@link LeasedJob} holding it sends both, fenced by
 * its token.
 *
 * @author EchoMQ
 */
final class JobOutput {

	private final Results results;

	private final String queue;

	private final JobId id;

	/** The converter of the handler's method; null for other handlers. */
	private volatile @Nullable PayloadConverter converter;

	/** The handler's result as the payload converter wrote it, or null for none. */
	private volatile @Nullable String result;

	JobOutput(Results results, String queue, JobId id) {
		this.results = results;
		this.queue = queue;
		this.id = id;
	}

	/**
	 * Use the converter of the handler's method for progress objects.
	 * @param converter the converter
	 */
	void converter(PayloadConverter converter) {
		this.converter = converter;
	}

	/**
	 * Keep the handler's result, to be stored by the completion.
	 * @param text the result as the payload converter wrote it
	 * @throws io.echomq.core.ResultTooLargeException if it is over the size cap (the
	 * attempt then fails)
	 */
	void result(String text) {
		this.results.check(this.queue, this.id, text);
		this.result = text;
	}

	/**
	 * Return the handler's result, once it returned one.
	 * @return the result as the payload converter wrote it, or {@code null}
	 */
	@Nullable String result() {
		return this.result;
	}

	/**
	 * Write a progress object with the handler method's converter.
	 * @param progress the object
	 * @return its text
	 */
	String progressText(Object progress) {
		Assert.notNull(progress, "'progress' must not be null");
		PayloadConverter writer = this.converter;
		Assert.state(writer != null, "progress(Object) needs the payload converter of an @EchoJob method");
		try {
			return writer.write(progress);
		}
		catch (RuntimeException ex) {
			throw new PayloadConversionException("Progress of job " + this.id + " (a " + progress.getClass().getName()
					+ ") cannot be written by the payload converter: " + ex.getMessage(), ex);
		}
	}

}

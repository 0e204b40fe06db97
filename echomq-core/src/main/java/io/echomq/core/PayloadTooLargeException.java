package io.echomq.core;

/**
 * Thrown when a serialized payload is larger than {@code echomq.max-payload-size}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class PayloadTooLargeException extends EchoMqException {

	/**
	 * Create a new exception.
	 * @param queue the queue
	 * @param size the serialized size in bytes
	 * @param limit the limit in bytes
	 */
	public PayloadTooLargeException(String queue, long size, long limit) {
		super("Payload for queue '" + queue + "' is " + size + " bytes, larger than echomq.max-payload-size (" + limit
				+ " bytes)");
	}

}

package io.echomq.core;

/**
 * Thrown when a queue's stored format (its {@code <prefix>:{<queue>}:meta} hash, field
 * {@code format}) is one this node does not read: written by a newer EchoMQ, or not a
 * format at all. The node refuses the queue before writing anything to it; see the
 * upgrade policy in the operations guide.
 *
 * @author EchoMQ
 * @since 0.2.0
 */
public class UnsupportedFormatException extends EchoMqException {

	/**
	 * Create a new exception.
	 * @param message what was stored, where, and which formats this node reads
	 */
	public UnsupportedFormatException(String message) {
		super(message);
	}

}

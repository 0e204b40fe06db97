package io.echomq.autoconfigure;

/**
 * An EchoMQ configuration that cannot start: what is wrong and what to do about it, which
 * {@link EchoMqFailureAnalyzer} prints as Boot's "APPLICATION FAILED TO START" block.
 *
 * @author EchoMQ
 */
final class EchoMqConfigurationException extends IllegalStateException {

	private final String action;

	EchoMqConfigurationException(String description, String action) {
		super(description);
		this.action = action;
	}

	EchoMqConfigurationException(String description, String action, Throwable cause) {
		super(description, cause);
		this.action = action;
	}

	String getAction() {
		return this.action;
	}

}

package io.echomq.core;

/**
 * The engine an application's EchoMQ parts share: the template, the admin, the listener
 * container factory and the read services are each built on one, so that they share its
 * per-queue state (the keys and stored format of each queue, the server's clock, the
 * awaiters' connection). Spring Boot's auto-configuration provides it as a bean; without
 * Boot, {@code io.echomq.EchoMqEngines} creates one. An application uses it only to build
 * those parts: it never implements this interface, and its methods are all an application
 * may call.
 *
 * @author EchoMQ
 * @since 0.4.0
 */
public interface EchoMqEngine extends AutoCloseable {

	/**
	 * Return the keyspace the engine's keys are built in.
	 * @return the keyspace
	 */
	Keyspace keyspace();

	/**
	 * Close what the engine opened beside its script calls (the awaiters' Pub/Sub
	 * connection). The connection factory is the caller's to close.
	 */
	@Override
	void close();

}

package io.echomq.benchmark;

import java.util.Locale;

/**
 * What consumes the jobs in a measurement.
 *
 * @author EchoMQ
 */
enum ConsumerKind {

	/**
	 * The real listener containers ({@code EchoJobListenerRegistry}) and the reap and
	 * promote ticks ({@code EchoMqMaintenance}), as an application runs them.
	 */
	LISTENER {

		@Override
		Consumers open(BenchServer server) {
			return new ListenerConsumers(server.newEngine());
		}

	},

	/**
	 * An engine baseline: a minimal claim/complete loop on the {@code Engine} verbs (one
	 * poller thread per queue that claims as many jobs as there are free slots, a fixed
	 * pool of workers, {@code BLPOP} on the wake list when the queue runs dry), without
	 * the containers' lease renewal, events and bookkeeping, and without reap and promote
	 * ticks.
	 */
	ENGINE {

		@Override
		Consumers open(BenchServer server) {
			return new EngineConsumers(server.newEngine(), server.connectionFactory());
		}

	};

	/**
	 * Open consumers of this kind.
	 * @param server the server
	 * @return the consumers, none started yet
	 */
	abstract Consumers open(BenchServer server);

	/**
	 * Return the name used in figure names.
	 * @return e.g. {@code listener}
	 */
	String label() {
		return name().toLowerCase(Locale.ROOT);
	}

	static ConsumerKind of(String label) {
		return valueOf(label.strip().toUpperCase(Locale.ROOT));
	}

}

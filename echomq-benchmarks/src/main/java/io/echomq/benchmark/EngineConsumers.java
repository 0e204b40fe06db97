package io.echomq.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import io.echomq.core.internal.Engine;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * {@link Consumers} on the engine alone: an {@link EnginePoller} per queue.
 *
 * @author EchoMQ
 */
final class EngineConsumers implements Consumers {

	private final Engine jobs;

	private final LettuceConnectionFactory connectionFactory;

	private final List<EnginePoller> pollers = new ArrayList<>();

	private final LongAdder completed = new LongAdder();

	EngineConsumers(Engine jobs, LettuceConnectionFactory connectionFactory) {
		this.jobs = jobs;
		this.connectionFactory = connectionFactory;
	}

	@Override
	public synchronized void start(String queue, int concurrency, BenchHandler handler) {
		EnginePoller poller = new EnginePoller(this.jobs, this.connectionFactory, queue, concurrency, handler,
				this.completed);
		this.pollers.add(poller);
		poller.start();
	}

	@Override
	public long completed() {
		return this.completed.sum();
	}

	@Override
	public synchronized void close() {
		for (EnginePoller poller : this.pollers) {
			poller.stop();
		}
		for (EnginePoller poller : this.pollers) {
			poller.awaitStopped();
		}
		this.pollers.clear();
	}

}

package io.echomq.dashboard;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.echomq.EchoMqAdmin;
import io.echomq.EchoMqTemplate;
import io.echomq.core.internal.Engine;
import io.echomq.core.QueueInspector;
import io.echomq.core.QueueStats;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.ListenerSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * What the dashboard's web tests share: the application's port, template, admin, engine
 * and listener registry, a client of the dashboard at {@code /echomq}, and the handlers a
 * test registered, released after it. Each subclass keeps its own
 * {@code @DynamicPropertySource} calling {@link DashboardTestApplication#redis}, so that
 * each test class has a context, and a key prefix, of its own.
 *
 * @author EchoMQ
 */
abstract class DashboardWebTestSupport {

	static final Duration WAIT = Duration.ofSeconds(15);

	@LocalServerPort
	protected int port;

	@Autowired
	protected EchoJobListenerRegistry listeners;

	@Autowired
	protected EchoMqTemplate template;

	@Autowired
	protected EchoMqAdmin admin;

	@Autowired
	protected Engine jobs;

	protected QueueInspector inspector;

	protected DashboardClient client;

	private final List<TestHandler> handlers = new ArrayList<>();

	@BeforeEach
	void setUpClient() {
		this.inspector = new QueueInspector(this.jobs);
		this.client = new DashboardClient(this.port, "/echomq");
	}

	@AfterEach
	void releaseHandlers() {
		this.handlers.forEach(TestHandler::release);
	}

	/**
	 * Register a handler for the queue, released after the test.
	 * @param queue the queue
	 * @return the handler
	 */
	protected TestHandler listen(String queue) {
		TestHandler handler = new TestHandler();
		this.handlers.add(handler);
		this.listeners.register(queue, handler, ListenerSettings.builder().maxAttempts(1).concurrency(2).build());
		return handler;
	}

	/**
	 * Return the queue's statistics, read from the server.
	 * @param queue the queue
	 * @return the statistics
	 */
	protected QueueStats stats(String queue) {
		return this.inspector.stats(queue);
	}

}

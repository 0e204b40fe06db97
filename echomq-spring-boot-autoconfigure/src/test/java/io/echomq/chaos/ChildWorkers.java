package io.echomq.chaos;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.echomq.chaos.worker.WorkerMain;
import io.echomq.test.ChildJvm;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The worker JVMs a chaos test starts ({@link WorkerMain}), killed after the test if they
 * are still alive.
 *
 * @author EchoMQ
 */
final class ChildWorkers implements AfterEachCallback {

	private final List<Process> started = new ArrayList<>();

	Process start(Path log, List<String> arguments) {
		Process worker = ChildJvm.start(WorkerMain.class, log, arguments);
		this.started.add(worker);
		return worker;
	}

	@Override
	public void afterEach(ExtensionContext context) throws InterruptedException {
		for (Process worker : this.started) {
			if (worker.isAlive()) {
				worker.destroyForcibly();
				worker.waitFor(10, TimeUnit.SECONDS);
			}
		}
		this.started.clear();
	}

}

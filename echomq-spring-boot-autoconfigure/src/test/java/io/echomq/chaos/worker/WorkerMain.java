package io.echomq.chaos.worker;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.echomq.listener.JobHandler;
import io.echomq.test.ChildJvm;

/**
 * A worker JVM for the {@code kill -9} tests: consumes one queue with a
 * {@link ChaosWorker} whose handler works for a random while, then records the run in a
 * {@link RedisRunLedger}. It never ends by itself before its lifetime is up, except when
 * its standard input closes (the test JVM is gone), so it cannot outlive the test.
 * <p>
 * Arguments: {@code host port prefix queue concurrency leaseMs minWorkMs maxWorkMs
 * lifetimeSeconds}, where {@code queue} may name several queues separated by commas. It
 * prints {@code READY} once its containers run.
 *
 * @author EchoMQ
 */
public final class WorkerMain {

	private WorkerMain() {
	}

	/**
	 * Run the worker.
	 * @param args see the class description
	 * @throws InterruptedException if interrupted while running
	 */
	public static void main(String[] args) throws InterruptedException {
		if (args.length != 9) {
			System.err.println("Usage: WorkerMain host port prefix queue concurrency leaseMs minWorkMs maxWorkMs "
					+ "lifetimeSeconds");
			System.exit(2);
		}
		String host = args[0];
		int port = Integer.parseInt(args[1]);
		String prefix = args[2];
		String[] queues = args[3].split(",");
		int concurrency = Integer.parseInt(args[4]);
		Duration lease = Duration.ofMillis(Long.parseLong(args[5]));
		long minWork = Long.parseLong(args[6]);
		long maxWork = Long.parseLong(args[7]);
		long lifetime = Long.parseLong(args[8]);
		CountDownLatch end = new CountDownLatch(1);
		watchStandardInput(end);
		ChaosWorker worker = new ChaosWorker(ChaosWorker.standalone(host, port, Duration.ofSeconds(2)),
				WorkerSettings.of(prefix).withConcurrency(concurrency).withLease(lease));
		for (String queue : queues) {
			worker.register(queue, handler(new RedisRunLedger(worker.template(), prefix, queue), minWork, maxWork));
		}
		worker.start();
		System.out.println("READY");
		System.out.flush();
		end.await(lifetime, TimeUnit.SECONDS);
		// the parent is gone or the lifetime is up: leave without draining
		Runtime.getRuntime().halt(0);
	}

	/**
	 * Return the handler the worker runs: it works for {@code minWork} to {@code maxWork}
	 * ms, then records the run; a job whose payload contains {@code poison} fails every
	 * attempt.
	 * @param ledger where runs are recorded
	 * @param minWork the shortest work in ms
	 * @param maxWork the longest work in ms
	 * @return the handler
	 */
	public static JobHandler handler(RedisRunLedger ledger, long minWork, long maxWork) {
		return (job, context) -> {
			// simulated work, not synchronisation
			Thread.sleep(ThreadLocalRandom.current().nextLong(minWork, maxWork + 1));
			if (job.payload().contains("poison")) {
				throw new IllegalStateException("poison");
			}
			ledger.ran(job.id());
		};
	}

	private static void watchStandardInput(CountDownLatch end) {
		ChildJvm.onParentExit(end::countDown);
	}

}

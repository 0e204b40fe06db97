package io.echomq.test.queues;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

import io.echomq.EchoMqAdmin;
import io.echomq.catalog.EchoMqQueueCatalog;
import io.echomq.core.CancelResult;
import io.echomq.core.JobState;
import io.echomq.inspect.JobView;
import io.echomq.inspect.QueueInspector;
import io.echomq.inspect.QueueStats;
import io.echomq.listener.EchoJobListenerContainerFactory;
import io.echomq.listener.EchoJobListenerEndpoint;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.JobHandler;
import io.echomq.listener.QueueListenerContainer;
import io.echomq.schedule.EchoMqSchedules;
import io.echomq.schedule.ScheduleFire;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.util.Assert;

/**
 * Runs an application's queues from a test, on the test thread, through the same scripts
 * and the same handlers as the listeners: what Sidekiq's {@code drain} and Oban's
 * {@code drain_queue} do. A drain claims a queue's pending jobs (fenced, with a lease),
 * runs the queue's {@code @EchoJob} handler (or a given one) through the invocation
 * interceptors, and records each outcome as a listener does: complete, retry with the
 * queue's backoff, or dead-letter once the attempts are used up. Scheduled and retried
 * jobs run only when the drain is asked to move the queue's time forward: those due by
 * then are made due now ({@code run_now}, the operator's "run it now"), never by waiting.
 * <p>
 * Listeners that also run would race the drain for the same jobs (each job still runs
 * once at a time, the fencing sees to that); tests that drain set
 * {@code echomq.listener.auto-startup=false}. Every Spring test context holds this class
 * as a bean (created when a test injects it); elsewhere,
 * {@link #of(ListableBeanFactory)}.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class EchoMqTestQueues {

	/** Jobs claimed per round of a drain. */
	private static final int CLAIM = 16;

	/** Handler runs after which a drain gives up: a handler that enqueues forever. */
	static final int MAX_RUNS = 10_000;

	private static final int PAGE = QueueInspector.MAX_PAGE;

	/** The locations a reset deletes from; active jobs are cancelled instead. */
	private static final List<JobState> RESET = List.of(JobState.PENDING, JobState.SCHEDULE, JobState.WAITING,
			JobState.COMPLETED, JobState.DEAD);

	private final EchoJobListenerContainerFactory factory;

	private final @Nullable EchoJobListenerRegistry registry;

	private final EchoMqAdmin admin;

	private final QueueInspector inspector;

	private final @Nullable EchoMqSchedules ticker;

	private Supplier<Collection<String>> knownQueues = List::of;

	/**
	 * Create the helpers over an application's EchoMQ beans.
	 * @param factory the listener container factory (its settings, interceptors and event
	 * listeners)
	 * @param registry the registry of the {@code @EchoJob} listeners, or {@code null}
	 * @param admin the admin facade (the queue's partitions)
	 * @param inspector the inspector (what the queue holds)
	 * @param ticker the schedules, or {@code null} without schedules
	 */
	public EchoMqTestQueues(EchoJobListenerContainerFactory factory, @Nullable EchoJobListenerRegistry registry,
			EchoMqAdmin admin, QueueInspector inspector, @Nullable EchoMqSchedules ticker) {
		Assert.notNull(factory, "'factory' must not be null");
		Assert.notNull(admin, "'admin' must not be null");
		this.factory = factory;
		this.registry = registry;
		this.admin = admin;
		this.ticker = ticker;
		this.inspector = inspector;
	}

	/**
	 * Create the helpers over the EchoMQ beans of an application context.
	 * @param beans the context's bean factory
	 * @return the helpers
	 */
	public static EchoMqTestQueues of(ListableBeanFactory beans) {
		EchoMqTestQueues queues = new EchoMqTestQueues(beans.getBean(EchoJobListenerContainerFactory.class),
				beans.getBeanProvider(EchoJobListenerRegistry.class).getIfUnique(), beans.getBean(EchoMqAdmin.class),
				beans.getBean(QueueInspector.class), beans.getBeanProvider(EchoMqSchedules.class).getIfUnique());
		EchoMqQueueCatalog catalog = beans.getBeanProvider(EchoMqQueueCatalog.class).getIfUnique();
		if (catalog != null) {
			queues.setKnownQueues(catalog::queues);
		}
		return queues;
	}

	/**
	 * Set where {@link #reset()} finds the application's queues besides its listeners (by
	 * default none): with Spring Boot, the queue catalog.
	 * @param knownQueues supplies the queue names
	 */
	public void setKnownQueues(Supplier<? extends Collection<String>> knownQueues) {
		Assert.notNull(knownQueues, "'knownQueues' must not be null");
		this.knownQueues = () -> List.copyOf(knownQueues.get());
	}

	/**
	 * Run the queue's pending jobs with its {@code @EchoJob} handler until none is
	 * pending, jobs the handlers enqueue meanwhile included. Scheduled jobs, and failed
	 * attempts waiting out their backoff, stay where they are.
	 * @param queue the queue
	 * @return what ran
	 * @throws IllegalArgumentException if no listener consumes the queue
	 */
	public DrainResult drain(String queue) {
		return drain(listener(queue), null);
	}

	/**
	 * Run the queue's jobs with its {@code @EchoJob} handler as {@link #drain(String)}
	 * does, with the queue's time moved {@code ahead}: scheduled jobs due by then, and
	 * retries whose backoff ends by then, run too.
	 * @param queue the queue
	 * @param ahead how far to move the queue's time, not negative
	 * @return what ran
	 * @throws IllegalArgumentException if no listener consumes the queue
	 */
	public DrainResult drain(String queue, Duration ahead) {
		return drain(listener(queue), horizon(ahead));
	}

	/**
	 * Run every job of the queue with its {@code @EchoJob} handler, scheduled ones and
	 * retries whatever their run-at, until the queue holds none but dead (and completed)
	 * ones: every retry runs at once, so a job that keeps failing ends dead-lettered.
	 * @param queue the queue
	 * @return what ran
	 * @throws IllegalArgumentException if no listener consumes the queue
	 */
	public DrainResult drainAll(String queue) {
		return drain(listener(queue), Instant.MAX);
	}

	/**
	 * Run the queue's pending jobs with the given handler, under the queue's listener
	 * settings (attempts, backoff, retry rules), as {@link #drain(String)} does.
	 * @param queue the queue
	 * @param handler the handler
	 * @return what ran
	 */
	public DrainResult drain(String queue, JobHandler handler) {
		return drain(this.factory.createContainer(EchoJobListenerEndpoint.of(queue, handler)), null);
	}

	/**
	 * Run the queue's jobs with the given handler, with the queue's time moved
	 * {@code ahead}, as {@link #drain(String, Duration)} does.
	 * @param queue the queue
	 * @param handler the handler
	 * @param ahead how far to move the queue's time, not negative
	 * @return what ran
	 */
	public DrainResult drain(String queue, JobHandler handler, Duration ahead) {
		return drain(this.factory.createContainer(EchoJobListenerEndpoint.of(queue, handler)), horizon(ahead));
	}

	/**
	 * Enqueue an occurrence of a recurring schedule now, as its fire would (its next fire
	 * time stays); {@link #drain(String)} then runs it.
	 * @param queue the schedule's queue
	 * @param name the schedule's name
	 * @return the occurrence
	 * @throws IllegalArgumentException if the schedule does not exist
	 */
	public ScheduleFire fireSchedule(String queue, String name) {
		EchoMqSchedules schedules = this.ticker;
		Assert.state(schedules != null, "No schedules in this application (no EchoMqSchedules bean)");
		ScheduleFire fire = schedules.trigger(queue, name);
		if (fire == null) {
			throw new IllegalArgumentException(
					"No schedule '" + name + "' on queue '" + queue + "'; schedules: " + schedules.schedules());
		}
		return fire;
	}

	/**
	 * Return what a queue holds now, summed over its partitions.
	 * @param queue the queue
	 * @return the counts by location
	 */
	public QueueStats stats(String queue) {
		long[] sizes = new long[JobState.values().length];
		for (String partition : partitions(queue)) {
			QueueStats stats = this.inspector.stats(partition);
			for (JobState state : JobState.values()) {
				sizes[state.ordinal()] += stats.count(state);
			}
		}
		return new QueueStats(queue, sizes[JobState.PENDING.ordinal()], sizes[JobState.ACTIVE.ordinal()],
				sizes[JobState.SCHEDULE.ordinal()], sizes[JobState.DEAD.ordinal()],
				sizes[JobState.QUARANTINE.ordinal()], sizes[JobState.COMPLETED.ordinal()], Map.of(), Map.of(),
				sizes[JobState.WAITING.ordinal()]);
	}

	/**
	 * Return the jobs a queue holds in a location, over its partitions, in the order of
	 * each location (pending and schedule by run-at).
	 * @param queue the queue
	 * @param state the location
	 * @return the jobs
	 */
	public List<JobView> jobs(String queue, JobState state) {
		List<JobView> all = new ArrayList<>();
		for (String partition : partitions(queue)) {
			for (int offset = 0;; offset += PAGE) {
				List<JobView> page = this.inspector.jobs(partition, state, offset, PAGE);
				all.addAll(page);
				if (page.size() < PAGE) {
					break;
				}
			}
		}
		return all;
	}

	/**
	 * Empty every queue of the application: every queue stored under its key prefix
	 * ({@link QueueInspector#queues()}), those of its {@code @EchoJob} listeners and
	 * those the queue catalog knows, so that a test starts from empty queues whatever an
	 * earlier test left.
	 * @return how many jobs were removed
	 * @see #reset(String...)
	 */
	public long reset() {
		Set<String> queues = new TreeSet<>(this.inspector.queues());
		queues.addAll(this.knownQueues.get());
		if (this.registry != null) {
			queues.addAll(this.registry.getQueues());
		}
		return reset(queues.toArray(String[]::new));
	}

	/**
	 * Empty the given queues: every job pending (in a lane or not), scheduled, waiting
	 * for its children, completed or dead is deleted, through the same script an operator
	 * deletes a job with, over every partition; a job running in a listener is cancelled
	 * (its outcome is discarded when its handler returns). Schedules and counters stay.
	 * @param queues the queues
	 * @return how many jobs were removed or cancelled
	 */
	public long reset(String... queues) {
		long removed = 0;
		for (String queue : queues) {
			for (String partition : partitions(queue)) {
				removed += resetPartition(queue, partition);
			}
		}
		return removed;
	}

	private long resetPartition(String queue, String partition) {
		long removed = 0;
		for (JobState state : RESET) {
			removed += deleteAll(queue, () -> this.inspector.jobs(partition, state, 0, PAGE));
		}
		for (String lane : this.inspector.laneSizes(partition).keySet()) {
			removed += deleteAll(queue, () -> this.inspector.laneJobs(partition, lane, 0, PAGE));
		}
		for (JobView job : this.inspector.jobs(partition, JobState.ACTIVE, 0, PAGE)) {
			removed += (this.admin.cancel(queue, job.id()).outcome() != CancelResult.Outcome.NOT_FOUND) ? 1 : 0;
		}
		return removed;
	}

	/**
	 * Delete the jobs at the head of a location page after page, until it is empty or a
	 * page holds none that can be deleted (quarantined rows are left as they are).
	 */
	private long deleteAll(String queue, Supplier<List<JobView>> head) {
		long removed = 0;
		for (List<JobView> page = head.get(); !page.isEmpty(); page = head.get()) {
			long before = removed;
			for (JobView job : page) {
				removed += this.admin.delete(queue, job.id()).isApplied() ? 1 : 0;
			}
			if (removed == before) {
				break;
			}
		}
		return removed;
	}

	private QueueListenerContainer listener(String queue) {
		QueueListenerContainer container = (this.registry != null) ? this.registry.getContainer(queue) : null;
		if (container == null) {
			throw new IllegalArgumentException("No @EchoJob listener consumes queue '" + queue + "'; listened to: "
					+ ((this.registry != null) ? this.registry.getQueues() : List.of())
					+ "; pass a handler: drain(queue, handler)");
		}
		return container;
	}

	private Instant horizon(Duration ahead) {
		Assert.isTrue(ahead != null && !ahead.isNegative(), () -> "ahead must not be negative, was " + ahead);
		return this.admin.serverTime().plus(ahead);
	}

	private DrainResult drain(QueueListenerContainer container, @Nullable Instant horizon) {
		long completed = container.getCompletedCount();
		long retried = container.getRetriedCount();
		long dead = container.getDeadCount();
		long snoozed = container.getSnoozedCount();
		int ran = 0;
		for (int round = 0;; round++) {
			int now = container.runNow(CLAIM);
			ran += now;
			if (ran > MAX_RUNS || round > MAX_RUNS) {
				throw new IllegalStateException("Drain of queue '" + container.getQueue() + "' ran " + ran
						+ " jobs and the queue is not empty yet: do its handlers enqueue forever?");
			}
			if (now == 0 && (horizon == null || makeDue(container.getQueue(), horizon) == 0)) {
				break;
			}
		}
		return new DrainResult(ran, container.getCompletedCount() - completed, container.getRetriedCount() - retried,
				container.getDeadCount() - dead, container.getSnoozedCount() - snoozed);
	}

	/**
	 * Make every scheduled job due by the horizon due now, through {@code run_now}; a job
	 * of a lane is then returned to its lane by a promote.
	 */
	private int makeDue(String queue, Instant horizon) {
		int moved = 0;
		for (String partition : partitions(queue)) {
			for (JobView job : this.inspector.jobs(partition, JobState.SCHEDULE, 0, PAGE)) {
				Instant at = job.at();
				if (at != null && at.isAfter(horizon)) {
					break;
				}
				if (this.admin.runNow(queue, job.id()).isApplied()) {
					moved++;
				}
			}
		}
		this.admin.promoteDue(queue);
		return moved;
	}

	private List<String> partitions(String queue) {
		return this.admin.getPartitioning().forQueue(queue).names();
	}

}

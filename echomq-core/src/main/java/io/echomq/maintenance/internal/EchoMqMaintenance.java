package io.echomq.maintenance.internal;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import io.echomq.core.ReapResult;
import io.echomq.core.internal.Engine;
import io.echomq.core.internal.Flows;
import io.echomq.core.internal.Guard;
import io.echomq.core.internal.MaintenancePass;
import io.echomq.core.internal.QuarantineResult;
import io.echomq.core.internal.QueueSignals;
import io.echomq.core.internal.Upkeep;
import io.echomq.listener.EchoJobListenerRegistry;
import io.echomq.listener.JobEventListener;
import io.echomq.listener.JobEvents;
import io.echomq.maintenance.MaintenanceStatus;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.log.LogAccessor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.util.Assert;

/**
 * Runs the reap tick (expired leases back to pending; it also relays the outbox of
 * finished flow children to their parents' slots, the fallback of the prompt relay that
 * runs when a completing script of this node wrote a record: on every tick while it finds
 * records, up to {@link #MAX_RELAY_CHECKS} idle checks apart while it finds none) and the
 * promote tick (due scheduled jobs to pending) for every queue that has a listener here
 * and every queue named under {@code echomq.queues}. Each tick moves at most one batch
 * per script call and calls again while a batch came back full. Every node runs the
 * ticks: the scripts are atomic, so two nodes never move one job twice.
 * <p>
 * The ticks do not poll. A pass over a queue learns when its next lease deadline (reap)
 * or run-at (promote) falls due, and the tick sleeps until the earliest of those, at most
 * {@link MaintenanceSettings#idleCheck()}. A delayed job that comes before every other
 * scheduled job of its queue pushes a schedule token on the queue's wake list; the
 * listener (of any node) that pops it signals its node ({@link QueueSignals}), whose
 * promote tick then reads that queue at once. A listener that starts signals its queue
 * too. So an idle queue costs two reads per idle check, and a job still runs at its
 * run-at whichever node enqueued it.
 * <p>
 * The reap tick also runs the quarantine sweep: members that this engine's verbs met and
 * could not move (not JOB ids, malformed rows) go to the queue's quarantine location
 * ({@link io.echomq.core.internal.Upkeep#quarantineSuspects(String)}), logged at WARN,
 * and, at most once per {@link #TRIM_INTERVAL} per queue, trims the queue's history
 * (completed and dead jobs) back within its retention bounds
 * ({@link io.echomq.core.internal.Upkeep#trimHistory(String, int)}).
 * <p>
 * A partition of a partitioned queue that a tick found idle is passed over by the next
 * few ticks ({@link IdlePartitions}), so idle partitions do not multiply the idle cost.
 * <p>
 * A tick failure is logged (at a limited rate) and never cancels the schedule. The ticks
 * run on a private scheduler, not a bean, so Boot's {@code taskScheduler} is unaffected.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EchoMqMaintenance implements SmartLifecycle, MaintenanceStatus {

	/** The lifecycle phase: starts before and stops after the listener registry. */
	public static final int DEFAULT_PHASE = EchoJobListenerRegistry.DEFAULT_PHASE - 100;

	/** Most script calls one tick makes per queue. */
	static final int MAX_ROUNDS = 100;

	/** How often the reap tick trims a queue's history while trims find work. */
	public static final Duration TRIM_INTERVAL = Duration.ofSeconds(10);

	/** How far apart trims of a queue grow while they find nothing to trim. */
	public static final Duration MAX_TRIM_INTERVAL = Duration.ofSeconds(60);

	/**
	 * How many idle checks apart the reap tick's relays of a queue's outbox grow while
	 * they find nothing: the prompt relay carries this node's records, the tick only what
	 * a node that stopped left.
	 */
	static final int MAX_RELAY_CHECKS = 4;

	private final Map<String, Backoff> trims = new ConcurrentHashMap<>();

	private final Map<String, Backoff> relays = new ConcurrentHashMap<>();

	private final Set<String> promptRelays = ConcurrentHashMap.newKeySet();

	private static final LogAccessor logger = new LogAccessor(EchoMqMaintenance.class);

	private final Upkeep upkeep;

	private final Flows flows;

	private final QueueSignals signals;

	final MaintenanceSettings settings;

	final Supplier<? extends Collection<String>> queues;

	private final Supplier<ThreadPoolTaskScheduler> schedulerFactory;

	private final JobEvents events;

	private final Guard guard = new Guard();

	final AtomicLong failedTicks = new AtomicLong();

	private final MaintenanceTick reap;

	private final MaintenanceTick promote;

	private @Nullable ThreadPoolTaskScheduler scheduler;

	private @Nullable Runnable unsubscribe;

	/**
	 * Create a scheduler.
	 * @param jobs the engine
	 * @param settings the intervals and batch size
	 * @param queues the queues to tick, asked on every tick
	 * @param schedulerFactory creates the (uninitialized) scheduler each start
	 * @param eventListeners told about what moved
	 */
	public EchoMqMaintenance(Engine jobs, MaintenanceSettings settings, Supplier<? extends Collection<String>> queues,
			Supplier<ThreadPoolTaskScheduler> schedulerFactory, List<JobEventListener> eventListeners) {
		Assert.notNull(jobs, "'jobs' must not be null");
		Assert.notNull(settings, "'settings' must not be null");
		Assert.notNull(queues, "'queues' must not be null");
		Assert.notNull(schedulerFactory, "'schedulerFactory' must not be null");
		this.upkeep = jobs.upkeep();
		this.flows = jobs.flows();
		this.signals = jobs.signals();
		this.settings = settings;
		this.queues = queues;
		this.schedulerFactory = schedulerFactory;
		this.events = new JobEvents(eventListeners);
		this.reap = new MaintenanceTick(this, "Reap", this::reapQueue, settings.reapInterval());
		this.promote = new MaintenanceTick(this, "Promote", this::promoteQueue, settings.promoteInterval());
	}

	@Override
	public void start() {
		this.guard.run(() -> {
			if (this.scheduler != null) {
				return;
			}
			ThreadPoolTaskScheduler created = this.schedulerFactory.get();
			created.initialize();
			this.scheduler = created;
			this.reap.times.clear();
			this.promote.times.clear();
			WakeableTask reapTask = new WakeableTask(created, this.reap::run, this.settings.reapInterval());
			WakeableTask promoteTask = new WakeableTask(created, this.promote::run, this.settings.promoteInterval());
			this.reap.task = reapTask;
			this.promote.task = promoteTask;
			this.unsubscribe = this.signals.subscribe(new Signals());
			long now = System.nanoTime();
			reapTask.runBy(now);
			promoteTask.runBy(now);
		});
	}

	@Override
	public void stop() {
		this.guard.run(() -> {
			if (this.unsubscribe != null) {
				this.unsubscribe.run();
				this.unsubscribe = null;
			}
			WakeableTask reapTask = this.reap.task;
			WakeableTask promoteTask = this.promote.task;
			if (reapTask != null && promoteTask != null) {
				reapTask.stop();
				promoteTask.stop();
			}
			this.reap.task = null;
			this.promote.task = null;
			if (this.scheduler != null) {
				this.scheduler.shutdown();
				this.scheduler = null;
			}
		});
	}

	@Override
	public boolean isRunning() {
		return this.guard.get(() -> this.scheduler != null);
	}

	@Override
	public int getPhase() {
		return DEFAULT_PHASE;
	}

	/**
	 * Run one reap tick over every queue now.
	 */
	public void reapTick() {
		this.reap.tickAll();
	}

	/**
	 * Reap one queue, run its quarantine sweep and, now and then, trim its history.
	 * @return when its earliest lease left falls due
	 */
	private OptionalLong reapQueue(String queue) {
		int requeued = 0;
		int dead = 0;
		OptionalLong next = OptionalLong.empty();
		for (int round = 0; round < MAX_ROUNDS; round++) {
			MaintenancePass<ReapResult> pass = this.upkeep.reapPass(queue, this.settings.batchSize());
			ReapResult result = pass.moved();
			requeued += result.requeued();
			dead += result.dead();
			next = pass.nextDueAt();
			if (result.total() < this.settings.batchSize()) {
				break;
			}
			next = OptionalLong.of(0);
		}
		if (requeued + dead > 0) {
			ReapResult total = new ReapResult(requeued, dead);
			logger.debug(() -> "Reaped " + total + " on queue '" + queue + "'");
			this.events.reaped(queue, total);
		}
		this.reap.idle.ticked(queue, requeued + dead > 0);
		QuarantineResult quarantined = this.upkeep.quarantineSuspects(queue);
		if (quarantined.quarantined() + quarantined.strays() > 0) {
			logger.warn(() -> "Quarantined " + quarantined.quarantined() + " member(s) of queue '" + queue
					+ "' that no transition could move, removed " + quarantined.strays()
					+ " stray copies; see the queue's audit. " + abbreviate(quarantined.reasons()));
		}
		trimHistory(queue);
		relayIfDue(queue, requeued + dead > 0);
		return next;
	}

	/**
	 * Relay the records of finished children of flows whose parent is on another slot:
	 * each applied on the parent's slot, then removed from this queue's outbox. Every
	 * node does it; a record applied twice changes nothing.
	 */
	private int relayFlows(String queue) {
		int total = 0;
		for (int round = 0; round < MAX_ROUNDS; round++) {
			int relayed = this.flows.relay(queue, this.settings.batchSize());
			total += relayed;
			if (relayed > 0) {
				logger.debug(() -> "Relayed " + relayed + " finished flow children of queue '" + queue + "'");
			}
			if (relayed < this.settings.batchSize()) {
				break;
			}
		}
		return total;
	}

	/**
	 * The reap tick's relay, the fallback of the prompt relay: on every tick while it
	 * finds records or the reap moved jobs (an expired child may have written one), then
	 * twice as far apart while it finds none, up to {@link #MAX_RELAY_CHECKS} idle
	 * checks, so that an idle queue's outbox costs a read per four idle checks, not per
	 * tick.
	 */
	private void relayIfDue(String queue, boolean reaped) {
		long now = System.nanoTime();
		Backoff last = this.relays.get(queue);
		if (!reaped && last != null && now - last.at() < last.delay()) {
			return;
		}
		long check = this.settings.idleCheck().toNanos();
		this.relays.put(queue, new Backoff(now, check));
		int relayed = relayFlows(queue);
		long wait = (relayed > 0 || last == null) ? 0
				: Math.min(MAX_RELAY_CHECKS * check, Math.max(check, last.delay() * 2));
		this.relays.put(queue, new Backoff(now, wait));
	}

	/**
	 * Trim the queue's history if its trim is due: {@link #TRIM_INTERVAL} after a trim
	 * that found work, twice as long as last time (up to {@link #MAX_TRIM_INTERVAL})
	 * after one that found none, so an idle queue's age bound holds within a minute.
	 */
	private void trimHistory(String queue) {
		long now = System.nanoTime();
		Backoff last = this.trims.get(queue);
		if (last != null && now - last.at() < last.delay()) {
			return;
		}
		this.trims.put(queue, new Backoff(now, (last != null) ? last.delay() : TRIM_INTERVAL.toNanos()));
		long trimmed = this.upkeep.trimHistory(queue, this.settings.batchSize() * MAX_ROUNDS);
		long wait = (trimmed > 0 || last == null) ? TRIM_INTERVAL.toNanos()
				: Math.min(MAX_TRIM_INTERVAL.toNanos(), last.delay() * 2);
		this.trims.put(queue, new Backoff(now, wait));
		if (trimmed > 0) {
			logger.debug(() -> "Trimmed " + trimmed + " job(s) of queue '" + queue + "' past its retention");
		}
	}

	/**
	 * Run one promote tick over every queue now.
	 */
	public void promoteTick() {
		this.promote.tickAll();
	}

	/**
	 * Promote one queue's due jobs.
	 * @return when its earliest scheduled job left falls due
	 */
	private OptionalLong promoteQueue(String queue) {
		int promoted = 0;
		int expired = 0;
		OptionalLong next = OptionalLong.empty();
		for (int round = 0; round < MAX_ROUNDS; round++) {
			MaintenancePass<Integer> pass = this.upkeep.promotePass(queue, this.settings.batchSize());
			promoted += pass.moved();
			expired += pass.expired();
			next = pass.nextDueAt();
			if (pass.moved() + pass.expired() < this.settings.batchSize()) {
				break;
			}
			next = OptionalLong.of(0);
		}
		this.promote.idle.ticked(queue, promoted + expired > 0);
		if (promoted > 0) {
			this.events.promoted(queue, promoted);
		}
		if (expired > 0) {
			this.events.expired(queue, expired);
		}
		return next;
	}

	/**
	 * Return how early an idle check may run: half the idle check, so that after a few
	 * runs the idle checks of every queue share one run.
	 */
	long idleSlack() {
		return this.settings.idleCheck().toNanos() / 2;
	}

	/**
	 * Return the nano time of a queue's next pass: when its next member falls due (server
	 * time, through the engine's estimate of it), at most the idle check away; a member
	 * due already that stayed where it was is tried again after {@code retry}.
	 */
	long nextPass(OptionalLong dueAt, Duration retry) {
		long now = System.nanoTime();
		long idle = now + this.settings.idleCheck().toNanos();
		if (dueAt.isEmpty()) {
			return idle;
		}
		long delayMillis = dueAt.getAsLong() - this.upkeep.estimatedServerTime();
		if (delayMillis <= 0) {
			return now + retry.toNanos();
		}
		long at = now + Duration.ofMillis(delayMillis).toNanos();
		return (at - idle < 0) ? at : idle;
	}

	private static String abbreviate(Map<String, String> reasons) {
		StringBuilder text = new StringBuilder();
		int shown = 0;
		for (Map.Entry<String, String> entry : reasons.entrySet()) {
			if (shown++ == 10) {
				return text.append(", ...").toString();
			}
			text.append((shown > 1) ? ", " : "").append(entry.getKey()).append(": ").append(entry.getValue());
		}
		return text.toString();
	}

	/**
	 * Return when the last reap tick succeeded on every queue.
	 * @return the time, or {@code null} if none did yet
	 */
	@Override
	public @Nullable Instant getLastReap() {
		return this.reap.last;
	}

	/**
	 * Return when the last promote tick succeeded on every queue.
	 * @return the time, or {@code null} if none did yet
	 */
	@Override
	public @Nullable Instant getLastPromote() {
		return this.promote.last;
	}

	/**
	 * Return how many reap ticks ran.
	 * @return the count
	 */
	@Override
	public long getReapTicks() {
		return this.reap.count.get();
	}

	/**
	 * Return how many promote ticks ran.
	 * @return the count
	 */
	@Override
	public long getPromoteTicks() {
		return this.promote.count.get();
	}

	/**
	 * Return how many ticks failed on at least one queue.
	 * @return the count
	 */
	@Override
	public long getFailedTicks() {
		return this.failedTicks.get();
	}

	/**
	 * Return the scheduler settings.
	 * @return the settings
	 */
	public MaintenanceSettings getSettings() {
		return this.settings;
	}

	@Override
	public Duration reapBound() {
		return this.settings.reapBound();
	}

	@Override
	public Duration promoteBound() {
		return this.settings.promoteBound();
	}

	/**
	 * Relay a queue's outbox at once, on the maintenance scheduler (not the worker that
	 * completed the child): at most one relay per queue waits to run, however many
	 * children finish meanwhile. A relay that fails or is refused leaves the records to
	 * the reap tick.
	 */
	private void relayPromptly(String queue) {
		ThreadPoolTaskScheduler current = this.guard.get(() -> this.scheduler);
		if (current == null || !this.promptRelays.add(queue)) {
			return;
		}
		try {
			current.execute(() -> {
				this.promptRelays.remove(queue);
				try {
					relayFlows(queue);
				}
				catch (RuntimeException ex) {
					this.relays.remove(queue);
					logger.debug(ex, () -> "Prompt relay of queue '" + queue + "' failed; the reap tick retries it");
				}
			});
		}
		catch (RuntimeException ex) {
			this.promptRelays.remove(queue);
			this.relays.remove(queue);
		}
	}

	/**
	 * Brings a queue's passes forward when a listener of this node signals it.
	 */
	private final class Signals implements QueueSignals.Listener {

		@Override
		public void outboxWritten(String queue) {
			relayPromptly(queue);
		}

		@Override
		public void scheduleChanged(String queue) {
			EchoMqMaintenance.this.promote.times.wake(queue);
			WakeableTask promote = EchoMqMaintenance.this.promote.task;
			if (promote != null) {
				promote.runBy(System.nanoTime());
			}
		}

		@Override
		public void queueOpened(String queue) {
			EchoMqMaintenance.this.reap.times.wake(queue);
			scheduleChanged(queue);
			WakeableTask reap = EchoMqMaintenance.this.reap.task;
			if (reap != null) {
				reap.runBy(System.nanoTime());
			}
		}

	}

	/**
	 * When a queue's history was last trimmed (or its outbox last relayed by the reap
	 * tick), and how long until the next time.
	 */
	private record Backoff(long at, long delay) {

	}

}

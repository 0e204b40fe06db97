package io.echomq.schedule.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

import io.echomq.core.internal.Guard;
import io.echomq.maintenance.internal.EchoMqMaintenance;
import io.echomq.schedule.DeclaredSchedule;
import io.echomq.schedule.EchoMqSchedules;
import io.echomq.schedule.InvalidScheduleException;
import io.echomq.schedule.ScheduleDefinition;
import io.echomq.schedule.ScheduleFire;
import io.echomq.schedule.ScheduleFireListener;
import io.echomq.schedule.ScheduleOrigin;
import io.echomq.schedule.ScheduleState;
import io.echomq.schedule.UnknownScheduleException;
import io.echomq.support.PayloadConverter;
import io.echomq.support.internal.RateLimitedLog;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.log.LogAccessor;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.util.Assert;

/**
 * Puts the declared schedules in the store at start-up and runs the schedule tick with a
 * fixed delay on every node (a sibling of the reap and promote ticks).
 * <p>
 * Start-up reconciles the store with the declarations: each declared schedule is put
 * (unchanged ones keep their next fire time), and every schedule of origin
 * {@link ScheduleOrigin#ANNOTATION annotation} or {@link ScheduleOrigin#PROPERTIES
 * properties} in the store of a queue this application ticks that is no longer declared
 * is removed. Schedules put by the API are never removed at start-up. A schedule an
 * operator paused stays paused when it is put again ({@link Schedules#put}).
 * <p>
 * The tick fires the due schedules of every queue in the store's index
 * ({@link Schedules#queues()}) and of every declared schedule, reading each definition
 * from the store on each tick, so a schedule changed by another node takes effect here
 * without a restart.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class ScheduleTicker implements SmartLifecycle, EchoMqSchedules {

	private static final LogAccessor logger = new LogAccessor(ScheduleTicker.class);

	private final Schedules schedules;

	private final Duration interval;

	private final Duration misfireThreshold;

	private final Supplier<? extends Collection<DeclaredSchedule>> declarations;

	private final ToIntFunction<String> maxAttempts;

	private final PayloadConverter converter;

	private final Supplier<ThreadPoolTaskScheduler> schedulerFactory;

	private final List<ScheduleFireListener> listeners;

	private final Guard guard = new Guard();

	private final Object reconcileLock = new Object();

	private final RateLimitedLog failures = RateLimitedLog.growing(logger, Duration.ofSeconds(30));

	private final AtomicLong ticks = new AtomicLong();

	private final AtomicLong fires = new AtomicLong();

	private volatile Map<String, DeclaredSchedule> declared = Map.of();

	private volatile boolean reconciled;

	private @Nullable ThreadPoolTaskScheduler scheduler;

	private @Nullable ScheduledFuture<?> tick;

	/**
	 * Create a ticker.
	 * @param schedules the store
	 * @param interval the delay between ticks
	 * @param misfireThreshold how late a fire time may be and still count as on time
	 * @param declarations the declared schedules, asked once at the first start
	 * @param maxAttempts the attempts an occurrence of a queue gets
	 * @param converter converts payloads that declared methods return
	 * @param schedulerFactory creates the (uninitialized) scheduler each start
	 * @param listeners told about each occurrence this node enqueues
	 */
	public ScheduleTicker(Schedules schedules, Duration interval, Duration misfireThreshold,
			Supplier<? extends Collection<DeclaredSchedule>> declarations, ToIntFunction<String> maxAttempts,
			PayloadConverter converter, Supplier<ThreadPoolTaskScheduler> schedulerFactory,
			List<ScheduleFireListener> listeners) {
		Assert.notNull(schedules, "'schedules' must not be null");
		Assert.isTrue(interval != null && interval.toMillis() > 0,
				() -> "interval must be at least 1ms, was " + interval);
		Assert.isTrue(misfireThreshold != null && !misfireThreshold.isNegative(),
				() -> "misfireThreshold must not be negative, was " + misfireThreshold);
		this.schedules = schedules;
		this.interval = interval;
		this.misfireThreshold = misfireThreshold;
		this.declarations = declarations;
		this.maxAttempts = maxAttempts;
		this.converter = converter;
		this.schedulerFactory = schedulerFactory;
		this.listeners = List.copyOf(listeners);
	}

	/**
	 * Check the declarations: every one valid, no two of one name on one queue.
	 * @param declarations the declarations
	 * @return them by {@code queue/name}
	 * @throws InvalidScheduleException naming the clash
	 */
	public static Map<String, DeclaredSchedule> index(Collection<DeclaredSchedule> declarations) {
		Map<String, DeclaredSchedule> byKey = new LinkedHashMap<>();
		for (DeclaredSchedule declaration : declarations) {
			ScheduleDefinition definition = declaration.definition();
			DeclaredSchedule other = byKey.putIfAbsent(key(definition.queue(), definition.name()), declaration);
			if (other != null) {
				throw new InvalidScheduleException(
						"Schedule '" + definition.name() + "' of queue '" + definition.queue()
								+ "' is declared twice: by " + other.source() + " and by " + declaration.source());
			}
		}
		return byKey;
	}

	@Override
	public void start() {
		this.guard.run(() -> {
			if (this.scheduler != null) {
				return;
			}
			if (!this.reconciled) {
				this.declared = index(this.declarations.get());
				reconcileOrDefer();
			}
			ThreadPoolTaskScheduler created = this.schedulerFactory.get();
			created.initialize();
			this.scheduler = created;
			this.tick = created.scheduleWithFixedDelay(this::tick, this.interval);
		});
	}

	/**
	 * Reconcile now; when the server cannot be reached, log it and let the tick try again
	 * (a worker may start before its server).
	 */
	private boolean reconcileOrDefer() {
		synchronized (this.reconcileLock) {
			if (this.reconciled) {
				return true;
			}
			try {
				reconcile();
				this.reconciled = true;
			}
			catch (InvalidScheduleException ex) {
				throw ex;
			}
			catch (RuntimeException ex) {
				this.failures.warn(ex,
						() -> "Could not put the declared schedules in the store yet; the tick tries again");
			}
			return this.reconciled;
		}
	}

	/**
	 * Put every declared schedule in the store and remove the declared schedules of the
	 * ticked queues that are no longer declared.
	 */
	void reconcile() {
		Map<String, Map<String, String>> stale = new HashMap<>();
		for (String queue : queues()) {
			this.schedules.definitions(queue).forEach((name, text) -> {
				if (this.declared.containsKey(key(queue, name))) {
					return;
				}
				ScheduleOrigin origin;
				try {
					origin = ScheduleCodec.decode(queue, name, text).origin();
				}
				catch (InvalidScheduleException ex) {
					return;
				}
				if (origin.isDeclared()) {
					stale.computeIfAbsent(queue, (q) -> new LinkedHashMap<>()).put(name, text);
				}
			});
		}
		for (DeclaredSchedule declaration : this.declared.values()) {
			if (this.schedules.put(declaration.definition())) {
				logger.info(() -> "Put schedule '" + declaration.definition().name() + "' of queue '"
						+ declaration.definition().queue() + "' declared by " + declaration.source());
			}
		}
		stale.forEach((queue, names) -> {
			int removed = this.schedules.remove(queue, names);
			if (removed > 0) {
				logger.info(() -> "Removed " + removed + " schedule(s) of queue '" + queue
						+ "' that are no longer declared: " + names.keySet());
			}
		});
	}

	@Override
	public void stop() {
		this.guard.run(() -> {
			if (this.tick != null) {
				this.tick.cancel(false);
				this.tick = null;
			}
			if (this.scheduler != null) {
				this.scheduler.shutdown();
				this.scheduler = null;
			}
		});
	}

	@Override
	public int getPhase() {
		return EchoMqMaintenance.DEFAULT_PHASE;
	}

	@Override
	public boolean isRunning() {
		return this.guard.get(() -> this.scheduler != null);
	}

	/**
	 * Run one tick over every queue with schedules now.
	 */
	public void tick() {
		Set<String> queues;
		try {
			if (!this.reconciled && !reconcileOrDefer()) {
				return;
			}
			queues = queues();
		}
		catch (RuntimeException ex) {
			this.failures.warn(ex, () -> "Schedule tick could not read the scheduled queues");
			return;
		}
		boolean failed = false;
		for (String queue : queues) {
			try {
				List<ScheduleFire> fired = this.schedules.tick(queue, this.misfireThreshold,
						this.maxAttempts.applyAsInt(queue), this::payload);
				fired.forEach(this::notifyListeners);
			}
			catch (Throwable ex) {
				failed = true;
				this.failures.warn(ex, () -> "Schedule tick failed on queue '" + queue + "'");
			}
		}
		if (!failed) {
			this.failures.recovered(() -> "Schedule tick works again");
		}
		this.ticks.incrementAndGet();
	}

	/**
	 * Enqueue an occurrence of a schedule now; its next fire time stays.
	 * @param queue the queue
	 * @param name the schedule name
	 * @return the occurrence, or {@code null} if there is no such schedule
	 */
	@Override
	public @Nullable ScheduleFire trigger(String queue, String name) {
		ScheduleDefinition.validateQueue(name, queue);
		ScheduleFire fire = this.schedules.trigger(queue, name, this.maxAttempts.applyAsInt(queue), this::payload);
		if (fire != null) {
			notifyListeners(fire);
		}
		return fire;
	}

	@Override
	public ScheduleState pause(String queue, String name) {
		return control(queue, name, true);
	}

	@Override
	public ScheduleState resume(String queue, String name) {
		return control(queue, name, false);
	}

	@Override
	public void delete(String queue, String name) {
		ScheduleDefinition.validateName(name);
		ScheduleDefinition.validateQueue(name, queue);
		if (!this.schedules.remove(queue, name)) {
			throw new UnknownScheduleException(queue, name);
		}
		logger.info(() -> "Deleted schedule '" + name + "' of queue '" + queue + "'");
	}

	private ScheduleState control(String queue, String name, boolean paused) {
		if (this.schedules.pause(queue, name, paused)) {
			logger.info(() -> (paused ? "Paused" : "Resumed") + " schedule '" + name + "' of queue '" + queue + "'");
		}
		ScheduleState state = this.schedules.get(queue, name);
		if (state == null) {
			throw new UnknownScheduleException(queue, name);
		}
		return state;
	}

	/**
	 * Return the queues the tick visits: those in the store's index and those of the
	 * declared schedules.
	 * @return the queues
	 */
	@Override
	public Set<String> queues() {
		Set<String> queues = new LinkedHashSet<>(this.schedules.queues());
		for (DeclaredSchedule declaration : this.declared.values()) {
			queues.add(declaration.definition().queue());
		}
		return queues;
	}

	/**
	 * Return every schedule in the store of the ticked queues.
	 * @return the schedules, by queue and name
	 */
	@Override
	public List<ScheduleState> schedules() {
		List<ScheduleState> all = new ArrayList<>();
		for (String queue : queues()) {
			all.addAll(this.schedules.list(queue));
		}
		return all;
	}

	/**
	 * Return the store.
	 * @return the schedules
	 */
	public Schedules getSchedules() {
		return this.schedules;
	}

	/**
	 * Return how many ticks ran.
	 * @return the count
	 */
	public long getTicks() {
		return this.ticks.get();
	}

	/**
	 * Return how many occurrences this node enqueued.
	 * @return the count
	 */
	public long getFires() {
		return this.fires.get();
	}

	private String payload(ScheduleDefinition definition) {
		DeclaredSchedule declaration = this.declared.get(key(definition.queue(), definition.name()));
		if (declaration == null || declaration.payload() == null
				|| definition.origin() != declaration.definition().origin()) {
			return definition.payload();
		}
		Object payload = declaration.payload().get();
		if (payload == null) {
			throw new InvalidScheduleException("Schedule '" + definition.name() + "' declared by "
					+ declaration.source() + " returned a null payload");
		}
		return this.converter.write(payload);
	}

	private void notifyListeners(ScheduleFire fire) {
		this.fires.incrementAndGet();
		logger.debug(() -> "Fired schedule '" + fire.name() + "' of queue '" + fire.queue() + "' for " + fire.fireTime()
				+ " as " + fire.id());
		for (ScheduleFireListener listener : this.listeners) {
			try {
				listener.fired(fire);
			}
			catch (RuntimeException ex) {
				logger.warn(ex, () -> "ScheduleFireListener " + listener + " failed");
			}
		}
	}

	private static String key(String queue, String name) {
		return queue + '/' + name;
	}

}

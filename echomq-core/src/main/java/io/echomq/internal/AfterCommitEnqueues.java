package io.echomq.internal;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import io.echomq.core.EnqueueAfterCommitException;
import io.echomq.core.JobId;

import org.springframework.core.log.LogAccessor;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The enqueues one template deferred in the current transaction, written when it commits
 * and dropped when it (or the savepoint they follow) rolls back.
 * <p>
 * One instance per template and transaction, registered as a
 * {@link TransactionSynchronization}. A {@code REQUIRES_NEW} transaction suspends the
 * outer one's synchronizations, so it gets an instance of its own and its enqueues happen
 * when it commits, whatever the outer transaction does. A {@code NESTED} transaction
 * shares the outer one's: its enqueues wait for the outer commit, and a rollback to its
 * savepoint drops the enqueues made after that savepoint.
 *
 * @author EchoMQ
 */
public final class AfterCommitEnqueues implements TransactionSynchronization {

	private static final LogAccessor logger = new LogAccessor(AfterCommitEnqueues.class);

	private final Object owner;

	private final List<Deferred> deferred = new ArrayList<>();

	private final Map<Object, Integer> savepoints = new IdentityHashMap<>();

	private AfterCommitEnqueues(Object owner) {
		this.owner = owner;
	}

	/**
	 * Return whether the calling thread runs in a transaction that can defer an enqueue.
	 * @return {@code true} inside an active, synchronized transaction
	 */
	public static boolean transactionActive() {
		return TransactionSynchronizationManager.isSynchronizationActive()
				&& TransactionSynchronizationManager.isActualTransactionActive();
	}

	/**
	 * Defer an enqueue until the current transaction commits.
	 * @param owner the template that writes it (each template keeps its own)
	 * @param queue the queue, for messages
	 * @param ids the ids already minted
	 * @param write the write
	 */
	public static void defer(Object owner, String queue, List<JobId> ids, Runnable write) {
		current(owner).deferred.add(new Deferred(queue, ids, write));
		logger.debug(() -> "Enqueue of " + ids.size() + " job(s) to queue '" + queue + "' waits for the commit");
	}

	private static AfterCommitEnqueues current(Object owner) {
		for (TransactionSynchronization synchronization : TransactionSynchronizationManager.getSynchronizations()) {
			if (synchronization instanceof AfterCommitEnqueues enqueues && enqueues.owner == owner) {
				return enqueues;
			}
		}
		AfterCommitEnqueues created = new AfterCommitEnqueues(owner);
		TransactionSynchronizationManager.registerSynchronization(created);
		return created;
	}

	@Override
	public void savepoint(Object savepoint) {
		this.savepoints.put(savepoint, this.deferred.size());
	}

	@Override
	public void savepointRollback(Object savepoint) {
		// a savepoint taken before this instance was registered precedes every deferred
		// enqueue
		int keep = this.savepoints.getOrDefault(savepoint, 0);
		this.deferred.subList(keep, this.deferred.size()).clear();
	}

	@Override
	public void afterCommit() {
		EnqueueAfterCommitException failure = null;
		for (Deferred enqueue : this.deferred) {
			try {
				enqueue.write().run();
			}
			catch (RuntimeException ex) {
				logger.error(ex, () -> "Transaction committed but the enqueue of " + enqueue.ids() + " to queue '"
						+ enqueue.queue() + "' failed");
				if (failure == null) {
					failure = new EnqueueAfterCommitException(enqueue.queue(), enqueue.ids(), ex);
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		this.deferred.clear();
		if (failure != null) {
			throw failure;
		}
	}

	@Override
	public void afterCompletion(int status) {
		if (status != STATUS_COMMITTED && !this.deferred.isEmpty()) {
			logger.debug(() -> "Transaction rolled back: " + this.deferred.size() + " deferred enqueue(s) dropped");
		}
		this.deferred.clear();
		this.savepoints.clear();
	}

	private record Deferred(String queue, List<JobId> ids, Runnable write) {

	}

}

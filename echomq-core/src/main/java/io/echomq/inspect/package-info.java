/**
 * Reading queues: counts and pages of each location
 * ({@link io.echomq.inspect.QueueInspector}), the audit of the state-is-location
 * invariant ({@link io.echomq.inspect.QueueAuditor}), flow trees, batches and the nodes
 * that serve a queue. Each is a bean of the auto-configuration.
 */
@NullMarked
package io.echomq.inspect;

import org.jspecify.annotations.NullMarked;

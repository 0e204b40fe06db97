/**
 * The template's machinery, internal to EchoMQ: routing a partitioned queue's writes
 * ({@code PartitionedWrites}), the enqueue interceptors around a write
 * ({@code EnqueueCallbacks}), writes deferred to a transaction's commit
 * ({@code AfterCommitEnqueues}) and the planning of flows and batches. It may change in
 * any release.
 */
@NullMarked
package io.echomq.internal;

import org.jspecify.annotations.NullMarked;

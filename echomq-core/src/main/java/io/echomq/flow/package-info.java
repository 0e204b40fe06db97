/**
 * Flows, batches and chains as an application declares them: a parent that runs after its
 * children ({@link io.echomq.flow.FlowSpec}), many jobs with callbacks
 * ({@link io.echomq.flow.BatchSpec}), what was enqueued ({@link io.echomq.flow.FlowJob},
 * {@link io.echomq.flow.BatchJob}) and how a finished child counts for its parent
 * ({@link io.echomq.flow.ChildFailure}).
 */
@NullMarked
package io.echomq.flow;

import org.jspecify.annotations.NullMarked;

/**
 * Engine upkeep that every node runs: the reap tick (expired leases back to pending) and
 * the promote tick (due scheduled jobs to pending).
 */
@NullMarked
package io.echomq.maintenance;

import org.jspecify.annotations.NullMarked;

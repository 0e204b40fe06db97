/**
 * The maintenance every node runs (reap and promote ticks), as a health check reads it.
 */
@NullMarked
package io.echomq.maintenance;

import org.jspecify.annotations.NullMarked;

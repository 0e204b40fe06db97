/**
 * Recurring schedules: cron or fixed-interval specs, their fire times across time-zone
 * changes, and the missed-run policy. The store and the tick that fire them live beside
 * the engine.
 */
@NullMarked
package io.echomq.schedule;

import org.jspecify.annotations.NullMarked;

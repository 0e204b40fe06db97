/**
 * The engine's parts: what {@code Engine} hands out to the listener, the template, the
 * maintenance ticks, the endpoint and the dashboard. Internal: not API, may change in any
 * release.
 */
@NullMarked
package io.echomq.core.internal;

import org.jspecify.annotations.NullMarked;

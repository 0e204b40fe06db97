/**
 * Internals of {@code io.echomq.maintenance}: public for the other EchoMQ modules, not an
 * API of their own; they may change in any release.
 */
@NullMarked
package io.echomq.maintenance.internal;

import org.jspecify.annotations.NullMarked;

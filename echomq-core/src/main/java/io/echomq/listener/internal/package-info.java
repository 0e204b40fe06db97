/**
 * Internals of {@code io.echomq.listener}: public for the other EchoMQ modules, not an
 * API of their own; they may change in any release.
 */
@NullMarked
package io.echomq.listener.internal;

import org.jspecify.annotations.NullMarked;

/**
 * Internals of {@code io.echomq.support}: public for the other EchoMQ modules, not an API
 * of their own; they may change in any release.
 */
@NullMarked
package io.echomq.support.internal;

import org.jspecify.annotations.NullMarked;

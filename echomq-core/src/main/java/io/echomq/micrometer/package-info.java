/**
 * Micrometer instrumentation for EchoMQ: job and queue meters, and the observation
 * documentation, contexts and conventions of the producer and the listeners.
 */
@NullMarked
package io.echomq.micrometer;

import org.jspecify.annotations.NullMarked;

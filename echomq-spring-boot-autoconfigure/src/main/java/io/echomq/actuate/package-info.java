/**
 * Actuator support for EchoMQ: the {@code echomq} endpoint and health indicator, and the
 * catalog of queues they (and the queue gauges) report on.
 */
@NullMarked
package io.echomq.actuate;

import org.jspecify.annotations.NullMarked;

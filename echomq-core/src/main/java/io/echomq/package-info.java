/**
 * EchoMQ's producer API: {@link io.echomq.EchoMQTemplate}.
 */
@NullMarked
package io.echomq;

import org.jspecify.annotations.NullMarked;

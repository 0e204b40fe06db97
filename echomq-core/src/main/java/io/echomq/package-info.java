/**
 * EchoMQ's producer API: {@link io.echomq.EchoMqTemplate}.
 */
@NullMarked
package io.echomq;

import org.jspecify.annotations.NullMarked;

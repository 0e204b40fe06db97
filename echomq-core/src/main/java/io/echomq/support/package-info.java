/**
 * Support types shared by the producer and the consumers: payload conversion.
 */
@NullMarked
package io.echomq.support;

import org.jspecify.annotations.NullMarked;

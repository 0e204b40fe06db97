/**
 * Annotation-driven job listeners: {@link io.echomq.annotation.EchoJob} and its
 * post-processor.
 */
@NullMarked
package io.echomq.annotation;

import org.jspecify.annotations.NullMarked;

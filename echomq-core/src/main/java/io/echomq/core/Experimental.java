package io.echomq.core;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks public API that may still change in a minor release: its types, methods and
 * fields are outside the compatibility promise of {@code docs/compatibility.md} and the
 * build's binary-compatibility check, until a release removes the mark.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR, ElementType.FIELD })
public @interface Experimental {

}

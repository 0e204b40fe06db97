/**
 * Spring AOT support: the runtime hints EchoMQ needs in an AOT-processed application or a
 * native image, registered through {@code META-INF/spring/aot.factories}.
 */
@NullMarked
package io.echomq.aot;

import org.jspecify.annotations.NullMarked;

/**
 * EchoMQ configuration: properties and the settings resolved from them.
 */
@NullMarked
package io.echomq.config;

import org.jspecify.annotations.NullMarked;

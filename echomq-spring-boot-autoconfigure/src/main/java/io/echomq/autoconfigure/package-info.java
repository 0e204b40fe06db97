/**
 * Auto-configuration for EchoMQ: one class per optional integration.
 */
@NullMarked
package io.echomq.autoconfigure;

import org.jspecify.annotations.NullMarked;

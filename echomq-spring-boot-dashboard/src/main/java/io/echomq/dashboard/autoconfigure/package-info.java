/**
 * Auto-configuration of the EchoMQ dashboard.
 */
@NullMarked
package io.echomq.dashboard.autoconfigure;

import org.jspecify.annotations.NullMarked;

/**
 * The EchoMQ dashboard's model: what it reads from the engine and the actions it takes.
 */
@NullMarked
package io.echomq.dashboard;

import org.jspecify.annotations.NullMarked;

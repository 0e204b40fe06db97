/**
 * The EchoMQ benchmark harness: one command that starts its own server and prints one
 * machine-readable {@code BENCH} line per figure.
 */
@NullMarked
package io.echomq.benchmark;

import org.jspecify.annotations.NullMarked;

/**
 * Test support: gives tests a real Redis or Valkey server, from the environment, a
 * Testcontainers container, a binary on {@code PATH} or the embedded-redis binary, and
 * local clusters. Testcontainers is an optional dependency; embedded-redis comes along,
 * so the chain ends in a working server on any machine with a JDK.
 * {@link io.echomq.test.context.AutoConfigureEchoMqServer} points a Spring test at such a
 * server.
 */
@NullMarked
package io.echomq.test;

import org.jspecify.annotations.NullMarked;

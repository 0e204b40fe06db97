/**
 * Test support: gives tests a real Redis or Valkey server, from the environment, a
 * Testcontainers container, a binary on {@code PATH} or the embedded-redis binary, and
 * local clusters. Testcontainers and embedded-redis are optional dependencies.
 */
@NullMarked
package io.echomq.test;

import org.jspecify.annotations.NullMarked;

/**
 * Starts real Redis and Valkey server processes, single nodes and local clusters, on free
 * loopback ports. Needs neither Spring nor a Redis client library: readiness checks and
 * cluster joining go through a tiny RESP client.
 */
@NullMarked
package io.echomq.test.server;

import org.jspecify.annotations.NullMarked;

/**
 * The EchoMQ engine: branded job ids, the keyspace, and the atomic Lua transitions.
 */
@NullMarked
package io.echomq.core;

import org.jspecify.annotations.NullMarked;

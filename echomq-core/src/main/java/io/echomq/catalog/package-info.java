/**
 * The set of queues this application knows about, shared by metrics, health and the
 * endpoint.
 */
@NullMarked
package io.echomq.catalog;

import org.jspecify.annotations.NullMarked;

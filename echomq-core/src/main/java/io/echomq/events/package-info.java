/**
 * Job events other processes hear: the typed events of a queue's event stream and the
 * listener and reader that deliver them, in order, on any node.
 */
@NullMarked
package io.echomq.events;

import org.jspecify.annotations.NullMarked;

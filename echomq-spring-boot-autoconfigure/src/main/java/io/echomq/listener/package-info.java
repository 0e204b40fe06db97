/**
 * Job listener containers: claiming, handler execution, lease keeping, retry and
 * dead-lettering, graceful shutdown, and the reap and promote scheduler.
 */
@NullMarked
package io.echomq.listener;

import org.jspecify.annotations.NullMarked;

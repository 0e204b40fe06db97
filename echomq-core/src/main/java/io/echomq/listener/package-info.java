/**
 * Job listener containers: claiming, handler execution, lease keeping, retry and
 * dead-lettering, and graceful shutdown.
 */
@NullMarked
package io.echomq.listener;

import org.jspecify.annotations.NullMarked;

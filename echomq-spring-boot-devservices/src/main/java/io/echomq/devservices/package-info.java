/**
 * Development-time support: starts a local Redis-compatible server when an application
 * finds none where it is configured to look on this machine.
 */
@NullMarked
package io.echomq.devservices;

import org.jspecify.annotations.NullMarked;

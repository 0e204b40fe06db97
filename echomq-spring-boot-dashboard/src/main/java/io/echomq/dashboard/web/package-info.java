/**
 * The EchoMQ dashboard over Spring MVC: pages, JSON API, write guard.
 */
@NullMarked
package io.echomq.dashboard.web;

import org.jspecify.annotations.NullMarked;

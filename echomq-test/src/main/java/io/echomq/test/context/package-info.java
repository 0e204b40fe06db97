/**
 * Spring TestContext support: {@link io.echomq.test.context.AutoConfigureEchoMqServer}
 * points a test's application context at a real Redis or Valkey server.
 */
@NullMarked
package io.echomq.test.context;

import org.jspecify.annotations.NullMarked;

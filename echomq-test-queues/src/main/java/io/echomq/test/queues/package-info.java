/**
 * Test helpers over an application's queues: run a queue's jobs now on the test thread
 * through the real scripts ({@link io.echomq.test.queues.EchoMqTestQueues#drain}), fire
 * schedules on demand, and AssertJ assertions on what a queue holds
 * ({@link io.echomq.test.queues.EchoMqAssertions}).
 */
@NullMarked
package io.echomq.test.queues;

import org.jspecify.annotations.NullMarked;

/**
 * JMH micro-benchmarks of the engine and of its client-side costs. They never run during
 * {@code mvn verify}; see {@code docs/BENCHMARKS.md}.
 */
@NullMarked
package io.echomq.benchmark.jmh;

import org.jspecify.annotations.NullMarked;

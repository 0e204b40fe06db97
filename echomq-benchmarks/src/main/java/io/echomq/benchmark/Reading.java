package io.echomq.benchmark;

/**
 * One value of one figure, from one run.
 *
 * @param figure the figure name, e.g. {@code drain.listener.c16}
 * @param value the value
 * @param unit the unit, e.g. {@code jobs/s}
 * @author EchoMQ
 */
record Reading(String figure, double value, String unit) {

}

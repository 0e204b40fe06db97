package io.echomq.sample;

import java.time.LocalDate;

/**
 * The nightly digest job's payload: the day it covers.
 *
 * @param day the day
 * @author EchoMQ
 */
public record DailyDigest(LocalDate day) {

}

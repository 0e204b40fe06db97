package io.echomq.dashboard;

/**
 * A moment of a job's life.
 *
 * @param event the row field or event it comes from
 * @param label what happened
 * @param at when, epoch ms
 * @author EchoMQ
 * @since 0.1.0
 */
public record TimelineEntry(String event, String label, long at) {

}

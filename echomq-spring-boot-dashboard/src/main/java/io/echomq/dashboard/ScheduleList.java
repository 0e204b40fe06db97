package io.echomq.dashboard;

import java.util.List;

/**
 * The recurring schedules.
 *
 * @param ticked whether this node runs a schedule tick (only then are they listed and can
 * be triggered)
 * @param schedules the schedules, by queue and name
 * @author EchoMQ
 * @since 0.1.0
 */
public record ScheduleList(boolean ticked, List<ScheduleItem> schedules) {

}

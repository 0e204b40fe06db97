package io.echomq.dashboard.web;

import io.echomq.dashboard.History;
import io.echomq.dashboard.JobDetail;
import io.echomq.dashboard.JobPage;
import io.echomq.dashboard.Overview;
import io.echomq.dashboard.QueueSummary;
import io.echomq.dashboard.ScheduleList;
import io.echomq.inspect.BatchView;
import io.echomq.inspect.FlowTree;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What the dashboard loads at run time: its pages and assets from the class path, and the
 * records its JSON API writes with Jackson (the routes are functional, so Spring finds no
 * controller return types to register).
 *
 * @author EchoMQ
 */
final class DashboardRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources().registerPattern(DashboardPage.LOCATION + "*");
		new BindingReflectionHintsRegistrar().registerReflectionHints(hints.reflection(), Overview.class, History.class,
				QueueSummary.class, JobPage.class, JobDetail.class, FlowTree.Flow.class, BatchView.Batch.class,
				BatchView.Listing.class, ScheduleList.class, EchoMqDashboardRoutes.ActionResponse.class,
				EchoMqDashboardRoutes.ErrorResponse.class);
	}

}

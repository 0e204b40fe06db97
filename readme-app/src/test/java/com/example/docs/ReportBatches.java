package com.example.docs;

// tag::imports[]
import java.util.List;

import io.echomq.EchoMqAdmin;
import io.echomq.EchoMqOperations;
import io.echomq.annotation.EchoJob;
import io.echomq.core.JobId;
import io.echomq.core.PartialEnqueueException;
import io.echomq.flow.BatchJob;
import io.echomq.flow.BatchSpec;
import io.echomq.flow.BatchStatus;
import io.echomq.flow.FlowChild;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import io.echomq.listener.JobContext;
// end::imports[]

import org.springframework.stereotype.Component;

@Component
class ReportBatches {

	private final EchoMqOperations template;

	private final EchoMqAdmin admin;

	ReportBatches(EchoMqOperations template, EchoMqAdmin admin) {
		this.template = template;
		this.admin = admin;
	}

	// tag::batch[]
	BatchJob render(String report, List<String> pages) {
		// one job per page; "publish" runs once every page rendered, "alert" at the
		// first page that dies
		return this.template.batch(BatchSpec.in("render")
			.jobs(pages.stream().map((page) -> FlowSpec.job("render", page)).toList())
			.onSuccess(FlowSpec.job("publish", report))
			.onDeath(FlowSpec.job("alert", report)));
	}
	// end::batch[]

	// tag::discard[]
	BatchJob renderOrNothing(String report, List<String> pages) {
		try {
			return render(report, pages);
		}
		catch (PartialEnqueueException ex) {
			// cancels the jobs written, children first, and finishes the open batch
			this.admin.discard(ex);
			throw ex;
		}
	}
	// end::discard[]

	// tag::open[]
	void renderAsTheyCome(List<List<String>> arrivals) {
		BatchJob batch = this.template.batch(BatchSpec.in("render").onComplete(FlowSpec.job("publish", "all")).open());
		for (List<String> pages : arrivals) {
			this.template.addToBatch("render", batch.id(),
					pages.stream().map((page) -> FlowSpec.job("render", page)).toList());
		}
		// no success or complete callback before the seal
		this.template.sealBatch("render", batch.id());
	}
	// end::open[]

	// tag::status[]
	String progress(JobId batch) {
		BatchStatus status = this.template.batchStatus("render", batch);
		return (status != null) ? status.completed() + " of " + status.total() + " done, " + status.dead() + " dead"
				: "unknown or expired";
	}
	// end::status[]

	// tag::chain[]
	FlowJob importFile(String path) {
		// download, then parse, then index: each step once the one before completed
		return this.template
			.chain(List.of(FlowSpec.job("download", path), FlowSpec.job("parse", path), FlowSpec.job("index", path)));
	}

	@EchoJob(queue = "parse")
	String parse(String path, JobContext context) {
		FlowChild previous = context.previous();
		String downloaded = this.template.result(previous.queue(), previous.id(), String.class);
		return "parsed " + downloaded;
	}
	// end::chain[]

}

package io.echomq.core;

import java.util.List;
import java.util.Map;

import io.echomq.core.internal.ClaimedJob;
import io.echomq.core.internal.EnqueueSpec;
import io.echomq.flow.FlowJob;
import io.echomq.flow.FlowSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.data.redis.connection.stream.MapRecord;

import static io.echomq.core.EventStreamEntries.entryOf;
import static io.echomq.core.EventStreamEntries.sequence;
import static io.echomq.core.EventStreamEntries.typesOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Job events of flows: a parent written to waiting, and its settle to pending, to dead or
 * (a batch's skipped callback) retired, each heard once in the parent queue's stream,
 * whether a child on the parent's slot settles it or the relay does (flow_parent.lua,
 * flow.lua, flow_apply.lua).
 *
 * @author EchoMQ
 */
@EnumSource(names = { "VALKEY", "REDIS", "CLUSTER" })
class FlowEventStreamTests extends FlowTestSupport {

	@Test
	void aParentShouldBeAddedWaitingThenPromotedByItsLastChildOrByTheRelay() {
		this.jobs.events().enable(this.queue, 1000);
		String other = this.queue + "-other";
		FlowJob local = template().flow(FlowSpec.job(this.queue, "local")
			.child(FlowSpec.job(this.queue, "a"))
			.child(FlowSpec.job(this.queue, "b")));
		FlowJob relayed = template().flow(FlowSpec.job(this.queue, "relayed").child(FlowSpec.job(other, "c")));
		complete(this.queue);
		complete(this.queue);
		complete(other);
		assertThat(this.jobs.flows().relay(other, 10)).isEqualTo(1);
		assertThat(this.jobs.claims().claim(this.queue, LEASE, 10)).extracting(ClaimedJob::id)
			.containsExactlyInAnyOrder(local.id(), relayed.id());

		List<MapRecord<String, Object, Object>> entries = entries();
		assertThat(entries).extracting((entry) -> entry.getId().getValue())
			.containsExactlyElementsOf(sequence(1, entries.size()));
		for (FlowJob parent : List.of(local, relayed)) {
			assertThat(typesOf(entries, parent.id())).containsExactly("added", "promoted", "claimed");
			assertThat(entryOf(entries, parent.id(), "added")).containsEntry("state", "waiting")
				.containsEntry("attempts", "0");
			assertThat(entryOf(entries, parent.id(), "promoted")).containsEntry("attempts", "0");
		}
		assertThat(this.redis.hasKey(this.jobs.events().key(other))).isFalse();
	}

	@Test
	void aParentWhoseChildDiesShouldBeHeardDeadAndARetiredCallbackDeleted() {
		this.jobs.events().enable(this.queue, 1000);
		String other = this.queue + "-other";
		EnqueueOptions once = EnqueueOptions.defaults().withMaxAttempts(1);
		FlowJob local = template()
			.flow(FlowSpec.job(this.queue, "local").child(FlowSpec.job(this.queue, "a").options(once)));
		FlowJob relayed = template()
			.flow(FlowSpec.job(this.queue, "relayed").child(FlowSpec.job(other, "b").options(once)));
		die(this.queue);
		die(other);
		assertThat(this.jobs.flows().relay(other, 10)).isEqualTo(1);
		JobId callback = skippedCallback(other);

		List<MapRecord<String, Object, Object>> entries = entries();
		assertThat(entries).extracting((entry) -> entry.getId().getValue())
			.containsExactlyElementsOf(sequence(1, entries.size()));
		for (FlowJob parent : List.of(local, relayed)) {
			assertThat(typesOf(entries, parent.id())).containsExactly("added", "dead");
			assertThat(entryOf(entries, parent.id(), "dead")).containsEntry("state", "dead")
				.containsEntry("error",
						"child " + parent.children().get(0).queue() + "/" + parent.children().get(0).id() + " is dead");
		}
		assertThat(typesOf(entries, callback)).containsExactly("added", "deleted");
		assertThat(entryOf(entries, callback, "deleted")).containsEntry("state", "waiting");
	}

	@Test
	void flowsOfAQueueThatDoesNotOptInShouldWriteNoStream() {
		String other = this.queue + "-other";
		EnqueueOptions once = EnqueueOptions.defaults().withMaxAttempts(1);
		template().flow(FlowSpec.job(this.queue, "local").child(FlowSpec.job(this.queue, "a")));
		template().flow(FlowSpec.job(this.queue, "relayed").child(FlowSpec.job(other, "b").options(once)));
		complete(this.queue);
		die(other);
		assertThat(this.jobs.flows().relay(other, 10)).isEqualTo(1);
		skippedCallback(other);
		assertThat(this.redis.hasKey(this.jobs.events().key(this.queue))).isFalse();
	}

	private List<MapRecord<String, Object, Object>> entries() {
		return EventStreamEntries.read(this.redis, this.jobs.events().key(this.queue));
	}

	/**
	 * A batch callback on this queue waiting on the other queue's batch, then skipped by
	 * it.
	 */
	private JobId skippedCallback(String other) {
		JobId callback = JobId.mint();
		this.jobs.flows()
			.createParent(this.queue, callback, "\"cb\"", EnqueueSpec.defaults(), List.of(other + "/batch"), Map.of());
		assertThat(this.jobs.flows().apply(other, "skipped " + this.queue + " " + callback + " " + JobId.mint()))
			.isTrue();
		return callback;
	}

}

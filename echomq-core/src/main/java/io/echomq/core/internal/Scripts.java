package io.echomq.core.internal;

import java.util.List;

/**
 * The scripts the engine runs, loaded once per engine.
 *
 * @author EchoMQ
 */
final class Scripts {

	final Script enqueue = Script.load("enqueue");

	final Script claim = Script.load("claim");

	final Script complete = Script.load("complete");

	final Script completeAll = Script.load("complete_all");

	final Script retry = Script.load("retry");

	final Script extend = Script.load("extend");

	final Script release = Script.load("release");

	final Script reap = Script.load("reap");

	final Script promote = Script.load("promote");

	final Script replay = Script.load("replay");

	final Script purge = Script.load("purge");

	final Script quarantine = Script.load("quarantine");

	final Script trim = Script.load("trim");

	final Script delete = Script.load("delete");

	final Script runNow = Script.load("run_now");

	final Script cancel = Script.load("cancel");

	final Script pause = Script.load("pause");

	final Script laneControl = Script.load("lane_control");

	final Script setLimits = Script.load("set_limits");

	final Script progress = Script.load("progress");

	final Script flowParent = Script.load("flow_parent");

	final Script flowApply = Script.load("flow_apply");

	final Script flowAck = Script.load("flow_ack");

	final Script batchOpen = Script.load("batch_open");

	final Script batchAdd = Script.load("batch_add");

	final Script batchSeal = Script.load("batch_seal");

	List<Script> all() {
		return List.of(this.enqueue, this.claim, this.complete, this.retry, this.extend, this.release, this.reap,
				this.promote, this.replay, this.purge, this.quarantine, this.trim, this.delete, this.runNow,
				this.cancel, this.pause, this.laneControl, this.setLimits, this.progress, this.flowParent,
				this.flowApply, this.flowAck, this.batchOpen, this.batchAdd, this.batchSeal);
	}

}

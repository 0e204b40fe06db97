package io.echomq.core.internal;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What every part of an {@link Engine} works with: the engine's state, its executor and
 * template, its scripts, the script calls the parts share and the pages they read.
 *
 * @author EchoMQ
 */
abstract class EnginePart {

	final EngineState state;

	final ScriptExecutor executor;

	final StringRedisTemplate template;

	final Scripts scripts;

	final ScriptCalls calls;

	final Pages pages;

	EnginePart(EngineState state) {
		this.state = state;
		this.executor = state.executor();
		this.template = state.template();
		this.scripts = state.scripts();
		this.calls = state.calls();
		this.pages = state.pages();
	}

}

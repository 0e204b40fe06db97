package io.echomq.aot;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The Lua transition scripts and their includes, which {@code Script.load} reads from the
 * class path when the engine starts.
 *
 * @author EchoMQ
 */
final class EchoMqScriptRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.resources()
			.registerPattern("io/echomq/core/scripts/*.lua")
			.registerPattern("io/echomq/core/scripts/includes/*.lua");
	}

}

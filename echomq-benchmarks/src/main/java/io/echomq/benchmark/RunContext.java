package io.echomq.benchmark;

import java.io.PrintStream;

/**
 * What a figure measures with: the server, the options and the sizes, and a stream for
 * progress notes (never the result lines).
 *
 * @param server the server
 * @param options the options
 * @param scale the sizes
 * @param log where progress goes
 * @author EchoMQ
 */
record RunContext(BenchServer server, HarnessOptions options, Scale scale, PrintStream log) {

	void note(String message) {
		this.log.println("# " + message);
		this.log.flush();
	}

}

package io.echomq.benchmark;

import java.util.List;

/**
 * A group of figures measured together, such as every drain figure.
 *
 * @author EchoMQ
 */
interface Figure {

	/**
	 * Return the group name, as {@code --figures} selects it.
	 * @return e.g. {@code drain}
	 */
	String group();

	/**
	 * Return the names of the figures a run prints, in order.
	 * @param options the options
	 * @return the figure names
	 */
	List<String> names(HarnessOptions options);

	/**
	 * Warm the JIT up before the measured runs; nothing by default.
	 * @param context the run context
	 * @throws Exception if the warm-up fails
	 */
	default void warmUp(RunContext context) throws Exception {
	}

	/**
	 * Measure once.
	 * @param context the run context
	 * @return one reading per figure name
	 * @throws Exception if the run fails
	 */
	List<Reading> run(RunContext context) throws Exception;

}

package io.echomq.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A group of figures measured together, such as every drain figure: its name, the names
 * of the figures it prints (the same every run unless they depend on the options), an
 * optional warm-up, and one measured run.
 *
 * @author EchoMQ
 */
abstract class Figure {

	private final String group;

	private final List<String> names;

	/**
	 * Create a group whose figure names depend on the options (see
	 * {@link #names(HarnessOptions)}), or that prints the given names whatever the
	 * options.
	 * @param group the group name
	 * @param names the figure names, in order, when they do not depend on the options
	 */
	Figure(String group, String... names) {
		this.group = group;
		this.names = List.of(names);
	}

	/**
	 * Return the group name, as {@code --figures} selects it.
	 * @return e.g. {@code drain}
	 */
	public final String group() {
		return this.group;
	}

	/**
	 * Return the names of the figures a run prints, in order; by default those given to
	 * the constructor.
	 * @param options the options
	 * @return the figure names
	 */
	public List<String> names(HarnessOptions options) {
		return this.names;
	}

	/**
	 * Warm the JIT up before the measured runs; nothing by default.
	 * @param context the run context
	 * @throws Exception if the warm-up fails
	 */
	public void warmUp(RunContext context) throws Exception {
	}

	/**
	 * Measure once.
	 * @param context the run context
	 * @return one reading per figure name
	 * @throws Exception if the run fails
	 */
	public abstract List<Reading> run(RunContext context) throws Exception;

	/**
	 * Add {@code base.metric} for each metric to a list of figure names.
	 * @param names the names so far
	 * @param base the figure name the metrics belong to
	 * @param metrics the metrics, in order
	 */
	static void addMetrics(List<String> names, String base, String... metrics) {
		for (String metric : metrics) {
			names.add(base + "." + metric);
		}
	}

	/**
	 * Return {@code base.metric} for each metric under the figure name of each item.
	 * @param <T> the type of the items
	 * @param items the items, such as the consumer kinds of a run
	 * @param base the figure name of an item
	 * @param metrics the metrics, in order
	 * @return the figure names, item by item
	 */
	static <T> List<String> metricsPer(List<T> items, Function<T, String> base, String... metrics) {
		List<String> names = new ArrayList<>();
		for (T item : items) {
			addMetrics(names, base.apply(item), metrics);
		}
		return names;
	}

}

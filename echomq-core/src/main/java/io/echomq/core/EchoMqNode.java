package io.echomq.core;

import java.lang.management.ManagementFactory;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;
import org.springframework.util.StringUtils;

/**
 * The identity of one node (one JVM running EchoMQ): the name its claims write to a job's
 * row ({@value #CLAIMED_BY_FIELD}), its listeners are registered under in each queue's
 * {@linkplain io.echomq.core.internal.KeyType#NODES node registry}, and the dashboard
 * shows.
 *
 * @param name the node's name: {@code <application> <pid>@<host>} unless set
 * @author EchoMQ
 * @since 0.2.0
 */
public record EchoMqNode(String name) {

	/**
	 * The row field a claim writes the claiming node's name to. It names the last
	 * claimant: the lease holder while the job is active, the node that ran it last
	 * otherwise.
	 */
	public static final String CLAIMED_BY_FIELD = "claimed_by";

	/**
	 * Longest node name: a row value of at most 64 bytes keeps the row in the server's
	 * compact listpack encoding under default settings ({@code hash-max-listpack-value}).
	 */
	public static final int MAX_LENGTH = 64;

	/**
	 * Create a node identity.
	 * @param name the name: 1 to {@value #MAX_LENGTH} characters, no control characters
	 * (ASCII keeps it within as many bytes)
	 * @throws IllegalArgumentException if the name is empty, too long or holds a control
	 * character
	 */
	public EchoMqNode {
		Assert.isTrue(StringUtils.hasText(name) && name.length() <= MAX_LENGTH,
				() -> "node name must be 1 to " + MAX_LENGTH + " characters, was '" + name + "'");
		Assert.isTrue(name.chars().noneMatch(Character::isISOControl),
				() -> "node name must not hold control characters, was '" + name + "'");
	}

	/**
	 * Return the identity of this JVM: the application's name, then the runtime's
	 * {@code <pid>@<host>}, cut to {@value #MAX_LENGTH} characters.
	 * @param application the application's name ({@code spring.application.name}), or
	 * {@code null} for {@code application}
	 * @return the identity
	 */
	public static EchoMqNode local(@Nullable String application) {
		String prefix = StringUtils.hasText(application) ? application : "application";
		String name = prefix + " " + ManagementFactory.getRuntimeMXBean().getName();
		return new EchoMqNode((name.length() > MAX_LENGTH) ? name.substring(0, MAX_LENGTH) : name);
	}

	@Override
	public String toString() {
		return this.name;
	}

}

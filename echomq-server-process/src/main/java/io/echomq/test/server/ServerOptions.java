package io.echomq.test.server;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * How to start a {@link RedisServerProcess}.
 *
 * @param port the port to listen on, or {@code 0} to pick a free one
 * @param clusterEnabled whether to run in cluster mode
 * @param appendOnly whether to enable the append-only file
 * @param appendFsync the {@code appendfsync} policy ({@code always}, {@code everysec},
 * {@code no}), or {@code null} for the server default
 * @param maxMemory the {@code maxmemory} limit, e.g. {@code 64mb}, or {@code null} for
 * none
 * @param maxMemoryPolicy the {@code maxmemory-policy}, e.g. {@code noeviction}, or
 * {@code null} for the server default
 * @param extraArgs further command line arguments, appended last, e.g.
 * {@code --loglevel verbose}
 * @param sentinel whether to run as a Sentinel ({@code --sentinel}, with a configuration
 * file of its own in the server's directory that the Sentinel rewrites)
 * @author EchoMQ
 * @since 0.1.0
 */
public record ServerOptions(int port, boolean clusterEnabled, boolean appendOnly, @Nullable String appendFsync,
		@Nullable String maxMemory, @Nullable String maxMemoryPolicy, List<String> extraArgs, boolean sentinel) {

	/**
	 * Validate and copy the components.
	 * @param port the port to listen on, or {@code 0} to pick a free one
	 * @param clusterEnabled whether to run in cluster mode
	 * @param appendOnly whether to enable the append-only file
	 * @param appendFsync the {@code appendfsync} policy, or {@code null}
	 * @param maxMemory the {@code maxmemory} limit, or {@code null}
	 * @param maxMemoryPolicy the {@code maxmemory-policy}, or {@code null}
	 * @param extraArgs further command line arguments
	 * @param sentinel whether to run as a Sentinel
	 */
	public ServerOptions {
		if (port < 0 || port > 65535) {
			throw new IllegalArgumentException("Port must be between 0 and 65535, got " + port);
		}
		if (clusterEnabled && port > 55535) {
			throw new IllegalArgumentException(
					"A cluster node also listens on port + 10000, so port " + port + " is too high");
		}
		if (sentinel && clusterEnabled) {
			throw new IllegalArgumentException("A server runs as a Sentinel or as a cluster node, not both");
		}
		extraArgs = List.copyOf(extraArgs);
	}

	/**
	 * Return options for a standalone server on a free port without persistence.
	 * @return the default options
	 */
	public static ServerOptions defaults() {
		return builder().build();
	}

	/**
	 * Start building options from the {@linkplain #defaults() defaults}.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return a builder that starts from these options.
	 * @return a new builder
	 */
	public Builder toBuilder() {
		Builder builder = new Builder();
		builder.port = this.port;
		builder.clusterEnabled = this.clusterEnabled;
		builder.appendOnly = this.appendOnly;
		builder.appendFsync = this.appendFsync;
		builder.maxMemory = this.maxMemory;
		builder.maxMemoryPolicy = this.maxMemoryPolicy;
		builder.extraArgs.addAll(this.extraArgs);
		builder.sentinel = this.sentinel;
		return builder;
	}

	/**
	 * Return a copy of these options with the given port.
	 * @param port the port, or {@code 0} to pick a free one
	 * @return the new options
	 */
	public ServerOptions withPort(int port) {
		return toBuilder().port(port).build();
	}

	/**
	 * Builds {@link ServerOptions}.
	 *
	 * @author EchoMQ
	 * @since 0.1.0
	 */
	public static final class Builder {

		private int port;

		private boolean clusterEnabled;

		private boolean appendOnly;

		private @Nullable String appendFsync;

		private @Nullable String maxMemory;

		private @Nullable String maxMemoryPolicy;

		private final List<String> extraArgs = new ArrayList<>();

		private boolean sentinel;

		private Builder() {
		}

		/**
		 * Set the port.
		 * @param port the port, or {@code 0} (the default) to pick a free one
		 * @return this builder
		 */
		public Builder port(int port) {
			this.port = port;
			return this;
		}

		/**
		 * Set whether to run in cluster mode.
		 * @param clusterEnabled {@code true} for a cluster node
		 * @return this builder
		 */
		public Builder clusterEnabled(boolean clusterEnabled) {
			this.clusterEnabled = clusterEnabled;
			return this;
		}

		/**
		 * Set whether to enable the append-only file.
		 * @param appendOnly {@code true} to enable it
		 * @return this builder
		 */
		public Builder appendOnly(boolean appendOnly) {
			this.appendOnly = appendOnly;
			return this;
		}

		/**
		 * Set the {@code appendfsync} policy.
		 * @param appendFsync {@code always}, {@code everysec} or {@code no}
		 * @return this builder
		 */
		public Builder appendFsync(@Nullable String appendFsync) {
			this.appendFsync = appendFsync;
			return this;
		}

		/**
		 * Set the {@code maxmemory} limit.
		 * @param maxMemory e.g. {@code 64mb}
		 * @return this builder
		 */
		public Builder maxMemory(@Nullable String maxMemory) {
			this.maxMemory = maxMemory;
			return this;
		}

		/**
		 * Set the {@code maxmemory-policy}.
		 * @param maxMemoryPolicy e.g. {@code noeviction}
		 * @return this builder
		 */
		public Builder maxMemoryPolicy(@Nullable String maxMemoryPolicy) {
			this.maxMemoryPolicy = maxMemoryPolicy;
			return this;
		}

		/**
		 * Add command line arguments, appended after all others.
		 * @param args e.g. {@code "--loglevel", "verbose"}
		 * @return this builder
		 */
		public Builder extraArgs(String... args) {
			this.extraArgs.addAll(Arrays.asList(args));
			return this;
		}

		/**
		 * Set whether to run as a Sentinel rather than a data server.
		 * @param sentinel {@code true} for a Sentinel
		 * @return this builder
		 */
		public Builder sentinel(boolean sentinel) {
			this.sentinel = sentinel;
			return this;
		}

		/**
		 * Build the options.
		 * @return the options
		 */
		public ServerOptions build() {
			return new ServerOptions(this.port, this.clusterEnabled, this.appendOnly, this.appendFsync, this.maxMemory,
					this.maxMemoryPolicy, this.extraArgs, this.sentinel);
		}

	}

}

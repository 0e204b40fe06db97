package io.echomq.test;

import java.util.ArrayDeque;
import java.util.Deque;

import io.echomq.test.server.LocalCluster;
import io.echomq.test.server.ServerFlavor;
import io.echomq.test.server.ServerOptions;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit extension that owns what a test starts (servers, clusters, applications on
 * them) and closes it after the test, last started first, whether the test passed, failed
 * or never got to start anything. Register it on an instance field: <pre class="code">
 * &#64;RegisterExtension
 * final OwnedServers servers = new OwnedServers();
 * </pre>
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class OwnedServers implements AfterEachCallback {

	private final Deque<AutoCloseable> owned = new ArrayDeque<>();

	/**
	 * Start a server of the given flavor that this JVM owns, closed after the test.
	 * @param flavor the kind of server
	 * @return the server
	 * @see TestRedisServer#startOwned(ServerFlavor)
	 */
	public TestServer start(ServerFlavor flavor) {
		return own(TestRedisServer.startOwned(flavor));
	}

	/**
	 * Start a server of the given flavor and options that this JVM owns, closed after the
	 * test.
	 * @param flavor the kind of server
	 * @param options the server's configuration
	 * @return the server
	 * @see TestRedisServer#startOwned(ServerFlavor, ServerOptions)
	 */
	public TestServer start(ServerFlavor flavor, ServerOptions options) {
		return own(TestRedisServer.startOwned(flavor, options));
	}

	/**
	 * Start a local cluster, closed after the test.
	 * @param flavor the kind of server
	 * @param masters the number of masters
	 * @param replicasPerMaster the number of replicas of each master
	 * @return the cluster
	 * @see TestRedisServer#cluster(ServerFlavor, int, int)
	 */
	public LocalCluster cluster(ServerFlavor flavor, int masters, int replicasPerMaster) {
		return own(TestRedisServer.cluster(flavor, masters, replicasPerMaster));
	}

	/**
	 * Close the given resource after the test, before anything owned earlier.
	 * @param <T> the type of resource
	 * @param resource what to close
	 * @return the resource
	 */
	public <T extends AutoCloseable> T own(T resource) {
		this.owned.push(resource);
		return resource;
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		Exception failure = null;
		while (!this.owned.isEmpty()) {
			try {
				this.owned.pop().close();
			}
			catch (Exception ex) {
				if (failure == null) {
					failure = ex;
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		if (failure != null) {
			throw failure;
		}
	}

}

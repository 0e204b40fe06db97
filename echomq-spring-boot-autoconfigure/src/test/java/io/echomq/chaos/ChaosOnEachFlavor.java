package io.echomq.chaos;

import io.echomq.test.OwnedServers;
import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Chaos tests that run once on each server flavor, each test on servers of its own that
 * are closed after it. Subclasses say by their tag which suite they belong to.
 *
 * @author EchoMQ
 */
@ParameterizedClass(name = "on {0}")
@EnumSource(ServerFlavor.class)
abstract class ChaosOnEachFlavor {

	/**
	 * The servers and clusters of the running test.
	 */
	@RegisterExtension
	final OwnedServers servers = new OwnedServers();

	/**
	 * The flavor of this run.
	 */
	@Parameter
	ServerFlavor flavor;

}

package io.echomq.chaos;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.echomq.test.server.ServerFlavor;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a suite that is about one server flavor and has a twin for the other: it runs
 * where the flavor's binary is installed, and on CI, which requires the binary (its
 * absence fails the suite there). Elsewhere the suite is skipped with the reason, rather
 * than run a second time on the server a missing binary falls back to, which its Redis
 * twin already runs on.
 *
 * @author EchoMQ
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RequiresServerBinaryCondition.class)
@interface RequiresServerBinary {

	/**
	 * Return the flavor whose binary the suite is about.
	 * @return the flavor
	 */
	ServerFlavor value();

}

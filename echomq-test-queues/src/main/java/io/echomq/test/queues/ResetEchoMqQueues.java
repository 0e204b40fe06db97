package io.echomq.test.queues;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Empties queues before each test method of a Spring test class, so that jobs one test
 * leaves cannot make another pass or fail: every queue of the application
 * ({@link EchoMqTestQueues#reset()}) or the named ones
 * ({@link EchoMqTestQueues#reset(String...)}).
 *
 * <pre class="code">
 * &#064;SpringBootTest
 * &#064;AutoConfigureEchoMqServer
 * &#064;ResetEchoMqQueues
 * class SignupTests { ... }
 * </pre>
 *
 * @author EchoMQ
 * @since 0.1.0
 * @see ResetEchoMqQueuesExtension
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(ResetEchoMqQueuesExtension.class)
public @interface ResetEchoMqQueues {

	/**
	 * The queues to empty before each test; every queue of the application when empty.
	 * @return the queue names
	 */
	String[] value() default {};

}

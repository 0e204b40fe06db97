package io.echomq.test.queues;

import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

import org.springframework.context.ApplicationContext;
import org.springframework.test.context.junit.jupiter.SpringExtension;

/**
 * The JUnit extension behind {@link ResetEchoMqQueues}: before each test method it
 * empties the queues through the test context's {@link EchoMqTestQueues}. Register it
 * with {@code @ExtendWith} after {@code SpringExtension} to reset every queue of the
 * application without the annotation.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class ResetEchoMqQueuesExtension implements BeforeEachCallback {

	@Override
	public void beforeEach(ExtensionContext context) {
		ApplicationContext application = SpringExtension.getApplicationContext(context);
		EchoMqTestQueues queues = application.getBean(EchoMqTestQueues.class);
		String[] names = AnnotationSupport.findAnnotation(context.getRequiredTestClass(), ResetEchoMqQueues.class)
			.map(ResetEchoMqQueues::value)
			.orElse(new String[0]);
		if (names.length == 0) {
			queues.reset();
		}
		else {
			queues.reset(names);
		}
	}

}

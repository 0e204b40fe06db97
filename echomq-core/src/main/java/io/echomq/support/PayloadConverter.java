package io.echomq.support;

import java.lang.reflect.Type;

/**
 * Converts job payloads to and from the text stored on a job row.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public interface PayloadConverter {

	/**
	 * Serialize a payload.
	 * @param payload the payload
	 * @return its text form
	 * @throws PayloadConversionException if it cannot be serialized
	 */
	String write(Object payload);

	/**
	 * Deserialize a payload.
	 * @param text the stored text
	 * @param type the target type, e.g. a handler parameter's generic type
	 * @return the payload
	 * @throws PayloadConversionException if the text cannot be read as that type
	 */
	Object read(String text, Type type);

}

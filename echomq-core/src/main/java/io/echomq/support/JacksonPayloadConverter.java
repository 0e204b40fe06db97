package io.echomq.support;

import java.lang.reflect.Type;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.Assert;

/**
 * {@link PayloadConverter} writing JSON with a Jackson 3 {@link JsonMapper}, by default
 * the application's own.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class JacksonPayloadConverter implements PayloadConverter {

	private final JsonMapper mapper;

	/**
	 * Create a converter on the given mapper.
	 * @param mapper the mapper
	 */
	public JacksonPayloadConverter(JsonMapper mapper) {
		Assert.notNull(mapper, "'mapper' must not be null");
		this.mapper = mapper;
	}

	@Override
	public String write(Object payload) {
		Assert.notNull(payload, "payload must not be null");
		try {
			return this.mapper.writeValueAsString(payload);
		}
		catch (JacksonException | IllegalArgumentException ex) {
			throw new PayloadConversionException("Payload of type " + payload.getClass().getName()
					+ " cannot be serialized to JSON: " + ex.getMessage(), ex);
		}
	}

	@Override
	public Object read(String text, Type type) {
		JavaType javaType = this.mapper.constructType(type);
		try {
			return this.mapper.readValue(text, javaType);
		}
		catch (JacksonException | IllegalArgumentException ex) {
			throw new PayloadConversionException(
					"Payload cannot be read as " + javaType.toCanonical() + ": " + ex.getMessage(), ex);
		}
	}

}

package io.echomq.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.web.Link;
import org.springframework.core.MethodParameter;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyAdvice;

/**
 * The {@code echomq} endpoint's links on the actuator's discovery page, with their fixed
 * segments written out: an actuator operation maps each path segment to a selector, so
 * {@code queues/{queue}} is listed as {@code {queues}/{queue}}, though only
 * {@code queues} answers there. The paths the endpoint answers are unchanged. A servlet
 * application's page; a reactive one's is {@link EchoMqReactiveEndpointLinks}.
 *
 * @author EchoMQ
 */
@ControllerAdvice
final class EchoMqEndpointLinks implements ResponseBodyAdvice<Object> {

	private static final String LINKS = "_links";

	private static final String ENDPOINT = "echomq";

	@Override
	public boolean supports(MethodParameter returnType, Class<? extends HttpMessageConverter<?>> converterType) {
		return Map.class.isAssignableFrom(returnType.getParameterType());
	}

	@Override
	public @Nullable Object beforeBodyWrite(@Nullable Object body, MethodParameter returnType,
			MediaType selectedContentType, Class<? extends HttpMessageConverter<?>> selectedConverterType,
			ServerHttpRequest request, ServerHttpResponse response) {
		if (!(body instanceof Map<?, ?> map) || map.size() != 1 || !(map.get(LINKS) instanceof Map<?, ?> links)) {
			return body;
		}
		Map<Object, Object> written = new LinkedHashMap<>();
		links.forEach((name, link) -> written.put(name, fixed(name, link)));
		return Map.of(LINKS, written);
	}

	private static Object fixed(Object name, Object link) {
		if (!(link instanceof Link each) || !(name instanceof String id) || !id.startsWith(ENDPOINT + "-")) {
			return link;
		}
		return new Link(EndpointLinkPaths.fixed(each.getHref()));
	}

}

package io.echomq.autoconfigure;

import java.nio.charset.StandardCharsets;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * The {@code echomq} endpoint's links on a reactive application's actuator discovery
 * page, with their fixed segments written out as {@link EchoMqEndpointLinks} does for a
 * servlet one: WebFlux has no response body advice, so the page's JSON is rewritten as it
 * is written. Only a {@code GET} of the discovery page itself is touched.
 *
 * @author EchoMQ
 */
final class EchoMqReactiveEndpointLinks implements WebFilter {

	private final String basePath;

	EchoMqReactiveEndpointLinks(String basePath) {
		this.basePath = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		String path = exchange.getRequest().getPath().pathWithinApplication().value();
		if (exchange.getRequest().getMethod() != HttpMethod.GET
				|| !(path.equals(this.basePath) || path.equals(this.basePath + "/"))) {
			return chain.filter(exchange);
		}
		return chain.filter(exchange.mutate().response(new LinksResponse(exchange.getResponse())).build());
	}

	private static final class LinksResponse extends ServerHttpResponseDecorator {

		LinksResponse(ServerHttpResponse delegate) {
			super(delegate);
		}

		@Override
		public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
			MediaType type = getHeaders().getContentType();
			if (type == null || !type.getSubtype().contains("json")) {
				return super.writeWith(body);
			}
			return DataBufferUtils.join(Flux.from(body)).flatMap((joined) -> {
				String json = joined.toString(StandardCharsets.UTF_8);
				DataBufferUtils.release(joined);
				byte[] fixed = EndpointLinkPaths.fixedLinks(json).getBytes(StandardCharsets.UTF_8);
				getHeaders().setContentLength(fixed.length);
				return super.writeWith(Mono.just(bufferFactory().wrap(fixed)));
			});
		}

	}

}

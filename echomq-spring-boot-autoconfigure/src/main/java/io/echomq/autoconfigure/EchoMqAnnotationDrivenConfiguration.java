package io.echomq.autoconfigure;

import org.springframework.context.annotation.Configuration;

/**
 * Placeholder: the listener infrastructure configuration (owned by the listener work).
 *
 * @author EchoMQ
 */
@Configuration(proxyBeanMethods = false)
class EchoMqAnnotationDrivenConfiguration {

}

package io.echomq.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * EchoMQ sample application.
 *
 * @author EchoMQ
 */
@SpringBootApplication
@EnableConfigurationProperties(SampleProperties.class)
public class SampleApplication {

	public static void main(String[] args) {
		SpringApplication.run(SampleApplication.class, args);
	}

}

package com.example.readme;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application the README's getting-started builds: a producer ({@link Signups}) and a
 * listener ({@link WelcomeEmails}).
 *
 * @author EchoMQ
 */
@SpringBootApplication
public class ReadmeApplication {

	public static void main(String[] args) {
		SpringApplication.run(ReadmeApplication.class, args);
	}

}

package com.example.readme;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.echomq.annotation.EchoJob;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Component;

/**
 * The smallest application the README describes: one listener.
 *
 * @author EchoMQ
 */
@SpringBootApplication
public class ReadmeApplication {

	public static void main(String[] args) {
		SpringApplication.run(ReadmeApplication.class, args);
	}

	@Component
	static class Greeter {

		final List<String> greeted = new CopyOnWriteArrayList<>();

		@EchoJob(queue = "greetings")
		void greet(String name) {
			this.greeted.add(name);
		}

	}

}

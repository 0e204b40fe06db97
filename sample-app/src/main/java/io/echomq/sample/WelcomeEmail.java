package io.echomq.sample;

/**
 * The payload of a welcome-email job.
 *
 * @param email where to send it
 * @param name whom to greet
 * @author EchoMQ
 */
public record WelcomeEmail(String email, String name) {

}

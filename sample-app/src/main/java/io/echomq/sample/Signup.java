package io.echomq.sample;

/**
 * A sign-up request.
 *
 * @param email the new user's email address
 * @param name the new user's name
 * @author EchoMQ
 */
public record Signup(String email, String name) {

}

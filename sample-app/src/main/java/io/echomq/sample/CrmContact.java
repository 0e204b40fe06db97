package io.echomq.sample;

/**
 * The payload of a CRM sync job.
 *
 * @param email the contact's email address
 * @param name the contact's name
 * @author EchoMQ
 */
public record CrmContact(String email, String name) {

}

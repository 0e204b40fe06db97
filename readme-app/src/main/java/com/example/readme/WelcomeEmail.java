package com.example.readme;

public record WelcomeEmail(String email, String name) {

}

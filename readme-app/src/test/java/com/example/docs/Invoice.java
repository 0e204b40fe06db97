package com.example.docs;

record Invoice(String id, long cents) {

}

package com.example.docs;

record Order(String customerId) {

}

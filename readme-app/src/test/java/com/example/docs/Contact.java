package com.example.docs;

record Contact(String email) {

}

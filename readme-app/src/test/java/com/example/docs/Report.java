package com.example.docs;

record Report(String name) {

}

package com.example.docs;

record Image(String path) {

}

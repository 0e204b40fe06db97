package com.example.docs;

record DocumentChange(String document) {

}

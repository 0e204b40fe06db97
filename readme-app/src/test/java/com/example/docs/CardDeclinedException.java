package com.example.docs;

class CardDeclinedException extends RuntimeException {

	CardDeclinedException(String message) {
		super(message);
	}

}

package com.example.docs;

interface KeyVault {

	String currentVersion(String name);

	byte[] key(String name, String version);

}

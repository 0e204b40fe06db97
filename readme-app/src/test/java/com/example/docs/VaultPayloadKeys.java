package com.example.docs;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import io.echomq.crypto.KeyVersion;
import io.echomq.crypto.PayloadKeys;
import org.jspecify.annotations.Nullable;

import org.springframework.stereotype.Component;

@Component
class VaultPayloadKeys implements PayloadKeys {

	private final KeyVault vault;

	private final Map<KeyVersion, SecretKey> keys = new ConcurrentHashMap<>();

	VaultPayloadKeys(KeyVault vault) {
		this.vault = vault;
	}

	@Override
	public KeyVersion current() {
		return KeyVersion.of(this.vault.currentVersion("echomq-payloads"));
	}

	@Override
	public @Nullable SecretKey find(KeyVersion version) {
		// a version the vault no longer has dead-letters the jobs that need it
		return this.keys.computeIfAbsent(version,
				(v) -> new SecretKeySpec(this.vault.key("echomq-payloads", v.id()), "AES"));
	}

}

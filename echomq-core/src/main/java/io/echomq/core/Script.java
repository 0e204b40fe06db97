package io.echomq.core;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A Lua transition script: its name, body and SHA-1, loaded from
 * {@code io/echomq/core/scripts/<name>.lua} on the class path.
 *
 * @param name the script name
 * @param body the Lua source
 * @param sha the lowercase hex SHA-1 of the body, as Redis computes it
 * @author EchoMQ
 * @since 0.1.0
 */
public record Script(String name, String body, String sha) {

	private static final String LOCATION = "io/echomq/core/scripts/";

	/**
	 * Create a script from its name and body.
	 * @param name the script name
	 * @param body the Lua source
	 * @return the script
	 */
	public static Script of(String name, String body) {
		return new Script(name, body, sha1(body));
	}

	/**
	 * Load a script shipped with EchoMQ.
	 * @param name the script name, without the {@code .lua} suffix
	 * @return the script
	 * @throws IllegalStateException if the script is not on the class path
	 */
	public static Script load(String name) {
		String path = LOCATION + name + ".lua";
		try (InputStream in = Script.class.getClassLoader().getResourceAsStream(path)) {
			if (in == null) {
				throw new IllegalStateException("EchoMQ script '" + path + "' is not on the class path");
			}
			return of(name, new String(in.readAllBytes(), StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read EchoMQ script '" + path + "'", ex);
		}
	}

	private static String sha1(String body) {
		try {
			MessageDigest digest = MessageDigest.getInstance("SHA-1");
			return HexFormat.of().formatHex(digest.digest(body.getBytes(StandardCharsets.UTF_8)));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	public String toString() {
		return "Script[" + this.name + " " + this.sha + "]";
	}

}

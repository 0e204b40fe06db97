package io.echomq.test.server;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A minimal, blocking RESP2 client over one socket, for readiness checks and cluster
 * administration. Not thread-safe and not meant for application traffic.
 * <p>
 * Replies map to Java types as follows: simple and bulk strings to {@link String},
 * integers to {@link Long}, arrays to {@code List<Object>}, nil to {@code null}. A
 * top-level error reply is thrown as a {@link RespErrorException}; an error nested in an
 * array is returned as a {@code RespErrorException} element.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public final class RespClient implements AutoCloseable {

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	private RespClient(Socket socket) throws IOException {
		this.socket = socket;
		this.in = new BufferedInputStream(socket.getInputStream());
		this.out = socket.getOutputStream();
	}

	/**
	 * Connect to a server.
	 * @param host the host name or address
	 * @param port the port
	 * @param timeout the timeout for connecting and for each reply
	 * @return a connected client
	 * @throws IOException if the connection cannot be established
	 */
	public static RespClient connect(String host, int port, Duration timeout) throws IOException {
		int millis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
		Socket socket = new Socket();
		try {
			socket.setTcpNoDelay(true);
			socket.setSoTimeout(millis);
			socket.connect(new InetSocketAddress(host, port), millis);
			return new RespClient(socket);
		}
		catch (IOException | RuntimeException ex) {
			socket.close();
			throw ex;
		}
	}

	/**
	 * Send one command and read its reply.
	 * @param args the command name and its arguments
	 * @return the reply, see the class description for the mapping
	 * @throws IOException if the connection fails or the reply is malformed
	 * @throws RespErrorException if the server answers with an error
	 */
	public @Nullable Object command(String... args) throws IOException {
		if (args.length == 0) {
			throw new IllegalArgumentException("A command needs at least its name");
		}
		ByteArrayOutputStream buffer = new ByteArrayOutputStream();
		writeLine(buffer, "*" + args.length);
		for (String arg : args) {
			byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
			writeLine(buffer, "$" + bytes.length);
			buffer.write(bytes);
			buffer.write('\r');
			buffer.write('\n');
		}
		this.out.write(buffer.toByteArray());
		this.out.flush();
		Object reply = read();
		if (reply instanceof RespErrorException error) {
			throw new RespErrorException(error.getMessage());
		}
		return reply;
	}

	/**
	 * Send one command whose reply must be a string.
	 * @param args the command name and its arguments
	 * @return the reply
	 * @throws IOException if the connection fails or the reply is not a string
	 * @throws RespErrorException if the server answers with an error
	 */
	public String commandForString(String... args) throws IOException {
		Object reply = command(args);
		if (reply instanceof String string) {
			return string;
		}
		throw new IOException("Expected a string reply to " + args[0] + " but got " + reply);
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

	private @Nullable Object read() throws IOException {
		int type = this.in.read();
		if (type == -1) {
			throw new EOFException("Connection closed by the server");
		}
		String line = readLine();
		return switch (type) {
			case '+' -> line;
			case '-' -> new RespErrorException(line);
			case ':' -> Long.parseLong(line);
			case '$' -> readBulk(Integer.parseInt(line));
			case '*' -> readArray(Integer.parseInt(line));
			default -> throw new IOException("Unsupported RESP type '" + (char) type + "' followed by " + line);
		};
	}

	private @Nullable String readBulk(int length) throws IOException {
		if (length < 0) {
			return null;
		}
		byte[] data = this.in.readNBytes(length);
		if (data.length < length) {
			throw new EOFException("Connection closed inside a bulk string");
		}
		if (this.in.read() != '\r' || this.in.read() != '\n') {
			throw new IOException("Bulk string not terminated by CRLF");
		}
		return new String(data, StandardCharsets.UTF_8);
	}

	private @Nullable List<@Nullable Object> readArray(int count) throws IOException {
		if (count < 0) {
			return null;
		}
		List<@Nullable Object> items = new ArrayList<>(count);
		for (int i = 0; i < count; i++) {
			items.add(read());
		}
		return items;
	}

	private String readLine() throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		while (true) {
			int b = this.in.read();
			if (b == -1) {
				throw new EOFException("Connection closed inside a reply line");
			}
			if (b == '\r') {
				if (this.in.read() != '\n') {
					throw new IOException("Reply line not terminated by CRLF");
				}
				return line.toString(StandardCharsets.UTF_8);
			}
			line.write(b);
		}
	}

	private static void writeLine(ByteArrayOutputStream buffer, String line) {
		buffer.writeBytes(line.getBytes(StandardCharsets.US_ASCII));
		buffer.write('\r');
		buffer.write('\n');
	}

}

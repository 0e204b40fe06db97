package io.echomq.autoconfigure;

import io.lettuce.core.resource.EpollProvider;
import io.lettuce.core.resource.Transports;
import io.netty.channel.epoll.EpollSocketChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The starter brings Netty's native epoll transport and these tests run with it, as
 * applications do: on Linux, Lettuce must actually load it rather than fall back to NIO
 * without a word (NIO costs about a quarter more client CPU per job,
 * docs/benchmarks-history.md, "Native epoll transport").
 *
 * @author EchoMQ
 */
class NativeTransportTests {

	@Test
	@EnabledOnOs(value = OS.LINUX, architectures = { "amd64", "x86_64", "aarch64" })
	void lettuceConnectsOverEpollOnLinux() {
		assertThat(EpollProvider.isAvailable()).isTrue();
		assertThat(Transports.socketChannelClass()).isEqualTo(EpollSocketChannel.class);
	}

}

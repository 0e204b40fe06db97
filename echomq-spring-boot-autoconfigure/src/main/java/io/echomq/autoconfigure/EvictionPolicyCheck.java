package io.echomq.autoconfigure;

import java.util.Optional;
import java.util.Properties;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Warns at start-up when the server may evict keys: with any {@code maxmemory-policy} but
 * {@code noeviction}, a full server silently deletes job rows and locations, which breaks
 * the guarantee that nothing enqueued is lost. With {@code noeviction} a full server
 * refuses writes instead, and EchoMQ reports that to the caller. When the policy cannot
 * be read (an ACL user without {@code CONFIG GET}, as the least-privilege ACL EchoMQ
 * documents, or a managed service that renames {@code CONFIG}), it warns that it could
 * not check, so the operator checks by hand.
 *
 * @author EchoMQ
 * @since 0.1.0
 */
public class EvictionPolicyCheck implements ApplicationListener<ApplicationReadyEvent> {

	private static final Log logger = LogFactory.getLog(EvictionPolicyCheck.class);

	private final StringRedisTemplate template;

	/**
	 * Create a check on the given template.
	 * @param template the template
	 */
	public EvictionPolicyCheck(StringRedisTemplate template) {
		this.template = template;
	}

	@Override
	public void onApplicationEvent(ApplicationReadyEvent event) {
		check().ifPresent(logger::warn);
	}

	/**
	 * Read the server's eviction policy.
	 * @return a warning if the policy can evict EchoMQ keys or cannot be read
	 * ({@code CONFIG GET} denied or disabled, server down), empty if it is
	 * {@code noeviction}
	 */
	public Optional<String> check() {
		String policy;
		try {
			Properties config = this.template
				.execute((RedisCallback<Properties>) (connection) -> connection.serverCommands()
					.getConfig("maxmemory-policy"));
			policy = (config != null) ? config.getProperty("maxmemory-policy") : null;
		}
		catch (DataAccessException ex) {
			return Optional.of(cannotCheck(ex.getMostSpecificCause().getMessage()));
		}
		if (policy == null) {
			return Optional.of(cannotCheck("CONFIG GET maxmemory-policy answered nothing"));
		}
		if ("noeviction".equals(policy)) {
			return Optional.empty();
		}
		return Optional.of("Redis maxmemory-policy is '" + policy + "': when the server is full it may evict "
				+ "EchoMQ job rows and queue keys, losing jobs. Set maxmemory-policy to 'noeviction' so a full "
				+ "server refuses writes instead (EchoMQ then fails the enqueue with a clear error).");
	}

	private static String cannotCheck(@Nullable String reason) {
		return "Could not check the Redis maxmemory-policy (" + reason + "): unless it is 'noeviction', a full "
				+ "server may evict EchoMQ job rows and queue keys, losing jobs. Check it on the server, or grant "
				+ "this user 'CONFIG GET' to have EchoMQ check it at start-up.";
	}

}

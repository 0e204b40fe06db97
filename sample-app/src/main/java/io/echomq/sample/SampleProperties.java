package io.echomq.sample;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the sample.
 *
 * @param crmFailureRate share of CRM sync attempts that fail, to show retries and dead
 * letters
 * @param tipsDelay how long after sign-up the tips email is sent
 * @param demoSignups sign-ups made at start-up so there is something to watch
 * @param digestWindow at most one "new sign-ups" note to the team per window (a throttled
 * unique job)
 * @author EchoMQ
 */
@ConfigurationProperties("sample")
public record SampleProperties(@DefaultValue("0.5") double crmFailureRate, @DefaultValue("10s") Duration tipsDelay,
		@DefaultValue("5") int demoSignups, @DefaultValue("1m") Duration digestWindow) {

}

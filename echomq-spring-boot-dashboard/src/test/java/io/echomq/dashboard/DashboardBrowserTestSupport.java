package io.echomq.dashboard;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.openqa.selenium.WebDriver;

/**
 * A dashboard web test that drives the pages in one real headless Chromium per test
 * class.
 *
 * @author EchoMQ
 */
abstract class DashboardBrowserTestSupport extends DashboardWebTestSupport {

	private static HeadlessChromium browser;

	@BeforeAll
	static void startBrowser() {
		browser = HeadlessChromium.start();
	}

	@AfterAll
	static void stopBrowser() {
		if (browser != null) {
			browser.close();
			browser = null;
		}
	}

	static WebDriver driver() {
		return browser.driver();
	}

	static void screenshot(String name) {
		browser.screenshot(name);
	}

}

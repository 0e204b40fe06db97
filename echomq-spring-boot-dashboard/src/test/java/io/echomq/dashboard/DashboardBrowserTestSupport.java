package io.echomq.dashboard;

import java.util.concurrent.Callable;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A dashboard web test that drives the pages in one real headless Chromium per test
 * class, and the steps it drives them with (click, wait for a text, read).
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

	static void click(WebDriver driver, By by) {
		await().atMost(WAIT).ignoreExceptions().until(clicked(driver, by));
	}

	static void type(WebDriver driver, By by, String text) {
		await().atMost(WAIT).ignoreExceptions().until(() -> {
			WebElement input = driver.findElement(by);
			input.clear();
			input.sendKeys(text);
			return true;
		});
	}

	private static Callable<Boolean> clicked(WebDriver driver, By by) {
		return () -> {
			driver.findElement(by).click();
			return true;
		};
	}

	static void awaitText(WebDriver driver, By by, String expected) {
		await().atMost(WAIT)
			.ignoreExceptions()
			.untilAsserted(() -> assertThat(driver.findElement(by).getText()).contains(expected));
	}

	static String text(WebDriver driver, By by) {
		return read(() -> driver.findElement(by).getText());
	}

	/**
	 * Assert that every badge on the page reads as a label: a capital or a digit first.
	 */
	static void assertBadgesLabelled(WebDriver driver) {
		assertThat(read(
				() -> driver.findElements(By.cssSelector(".badge")).stream().map((badge) -> badge.getText()).toList()))
			.isNotEmpty()
			.allSatisfy((badge) -> assertThat(badge).matches("[A-Z0-9].*"));
	}

	/**
	 * Read the page, again if it was redrawn under the read (polling redraws what
	 * changed).
	 */
	static <T> T read(Callable<T> read) {
		return await().atMost(WAIT).ignoreExceptions().until(read, (value) -> true);
	}

}

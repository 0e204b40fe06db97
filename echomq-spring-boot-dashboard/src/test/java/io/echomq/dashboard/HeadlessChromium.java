package io.echomq.dashboard;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.fail;

/**
 * Debian's Chromium, driven headless by its own chromedriver: both are named by path, so
 * Selenium never looks for (or downloads) a browser or driver of its own. Without them a
 * test is skipped with the reason, except on CI ({@code CI=true}), where it fails.
 *
 * @author EchoMQ
 */
final class HeadlessChromium implements AutoCloseable {

	static final File BROWSER = new File("/usr/bin/chromium");

	static final File DRIVER = new File("/usr/bin/chromedriver");

	private final Path profile;

	private final ChromeDriver driver;

	private HeadlessChromium(Path profile, ChromeDriver driver) {
		this.profile = profile;
		this.driver = driver;
	}

	/**
	 * Start a browser, or skip (fail on CI) when Chromium or chromedriver is missing.
	 * @return the browser
	 */
	static HeadlessChromium start() {
		if (!BROWSER.canExecute() || !DRIVER.canExecute()) {
			String reason = "Browser tests need Debian's chromium and chromium-driver (" + BROWSER + ", " + DRIVER
					+ "): apt-get install -y chromium chromium-driver";
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				fail("CI=true and " + reason);
			}
			Assumptions.abort(reason);
		}
		try {
			Path profile = Files.createTempDirectory("echomq-chromium-");
			ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(DRIVER)
				.usingAnyFreePort()
				.build();
			ChromeOptions options = new ChromeOptions();
			options.setBinary(BROWSER);
			options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
					"--disable-background-networking", "--disable-component-update", "--disable-sync",
					"--disable-dev-shm-usage", "--user-data-dir=" + profile, "--window-size=1280,1000",
					"--force-device-scale-factor=1", "--lang=en-US");
			ChromeDriver driver = new ChromeDriver(service, options);
			driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(20));
			return new HeadlessChromium(profile, driver);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	ChromeDriver driver() {
		return this.driver;
	}

	/**
	 * Save a screenshot of the window to {@code docs/dashboard/<name>.png} of the
	 * repository.
	 * @param name the file name, without {@code .png}
	 * @return the file
	 */
	Path screenshot(String name) {
		Path directory = Path.of("").toAbsolutePath().getParent().resolve("docs").resolve("dashboard");
		try {
			Files.createDirectories(directory);
			File shot = this.driver.getScreenshotAs(OutputType.FILE);
			Path target = directory.resolve(name + ".png");
			Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
			Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-r--r--"));
			return target;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() {
		try {
			this.driver.quit();
		}
		finally {
			try {
				FileSystemUtils.deleteRecursively(this.profile);
			}
			catch (IOException ex) {
				// a profile left in the temporary directory is harmless
			}
		}
	}

}

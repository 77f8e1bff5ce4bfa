package io.stator.server.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A real, headless Chromium driven by Selenium: Debian's {@code chromium} and {@code chromium-driver}
 * (installed by .ci/run; the README says how). The flags are the ones this closed network needs
 * (no update checks, no QUIC, no background connections) and a fresh profile each time.
 * Screenshots go to {@code target/console-screenshots}, never into the sources.
 */
public final class Browser implements AutoCloseable {

    public static final Path CHROMIUM = Paths.get("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Paths.get("/usr/bin/chromedriver");
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final ChromeDriver driver;
    private final Path profile;

    public Browser() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            throw new IllegalStateException("The console's browser tests need Debian's chromium and chromium-driver ("
                    + CHROMIUM + ", " + CHROMEDRIVER + "): apt-get install -y chromium chromium-driver (.ci/run does)");
        }
        try {
            profile = Files.createTempDirectory("stator-chromium");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1440,1100", "--user-data-dir=" + profile);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort().build();
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(WAIT);
    }

    public WebDriver driver() { return driver; }

    public void open(String url) {
        driver.get(url);
    }

    public Object script(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /** Waits (generously) until {@code condition} gives something other than null or false. */
    public <T> T until(Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, WAIT, Duration.ofMillis(100)).until(condition);
    }

    public WebElement find(String css) {
        return until(d -> {
            var found = d.findElements(By.cssSelector(css));
            return found.isEmpty() ? null : found.get(0);
        });
    }

    /** The page's live part's version: it changes each time the page refreshes itself. */
    public String version() {
        return driver.findElement(By.id("live")).getAttribute("data-version");
    }

    /** Waits for the page to refresh itself once more (htmx swapped its live part). */
    public void nextRefresh() {
        String before = version();
        until(d -> {
            try {
                return !before.equals(version());
            } catch (org.openqa.selenium.StaleElementReferenceException e) {
                return false;
            }
        });
    }

    public Path screenshot(String name) {
        try {
            Path dir = Paths.get("target", "console-screenshots");
            Files.createDirectories(dir);
            Path file = dir.resolve(name + ".png");
            Files.copy(driver.getScreenshotAs(OutputType.FILE).toPath(), file, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
        try (var files = Files.walk(profile)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A temporary profile left behind is harmless.
        }
    }
}

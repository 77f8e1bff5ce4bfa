package io.stator.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.engine.capacity.ThroughputSettings;
import io.stator.server.testing.AdvisorApi;
import io.stator.server.testing.Browser;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.TestClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The console in a real browser (headless Chromium through Selenium), one test per page, each
 * after a workload sent through the SDK to a real server: the hot key colours one heat-map row
 * past 100% and heads Top keys; a Scan on a hot path shows its finding with its dollars; a
 * throttled provisioned table lists its throttle events with the reason. Assertions read the DOM
 * (each chart's data is in its {@code data-series}, tables beside it), never pixels. Screenshots
 * of each page go to target/console-screenshots.
 *
 * <p>The clock is stopped between advances, so each burst of requests falls in one second; the
 * advisor runs at --advisor-scale 10 as in the findings' tests (F7's workload at a tenth). Each
 * workload runs once, for the first page that shows it; the pages that share one run right after
 * it (the heat map shows the last minute).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsoleBrowserTest {

    private static final TestClock CLOCK = new TestClock();
    private static final AtomicInteger UNIQUE = new AtomicInteger();
    private static final String KB_10 = "x".repeat(10_000);

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK).withAdvisorScale(10)
            .withThroughput(ThroughputSettings.DEFAULTS));

    private static Browser browser;
    private DynamoDbClient dynamo;

    @BeforeAll
    static void openTheBrowser() {
        CLOCK.set(Instant.parse("2026-09-01T00:00:00Z"));
        browser = new Browser();
    }

    @AfterAll
    static void closeTheBrowser() {
        if (browser != null) browser.close();
        CLOCK.useSystemTime();
    }

    @BeforeEach
    void client() {
        dynamo = server.client();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    // ---- the workloads, each run once, by the first page that needs it --------------------------

    /** The hot key's table, and the second in which it took 1,010 write units. */
    private record HotKey(String table, long second) {}

    private static HotKey hotKey;
    private static String scanned;
    private static String throttled;
    private static int throttledWrites;

    /** 101 writes of 10 KB on one key in one second: 1,010 write units, past its partition's 1,000. */
    private HotKey hotKey() {
        if (hotKey == null) {
            String t = table(BillingMode.PAY_PER_REQUEST);
            CLOCK.advance(Duration.ofSeconds(1));
            AtomicInteger sk = new AtomicInteger();
            putItems(t, 101, i -> item("hot", sk.incrementAndGet(), KB_10));
            for (int k = 0; k < 20; k++) putItems(t, 1, i -> item("cool" + UNIQUE.incrementAndGet(), 1, "x"));
            hotKey = new HotKey(t, CLOCK.instant().getEpochSecond());
        }
        return hotKey;
    }

    /** F7's workload at a tenth: 1,000 items, and a Scan with a filter five times a second for 30 s. */
    private String scanned() {
        if (scanned == null) {
            String t = table(BillingMode.PAY_PER_REQUEST);
            List<WriteRequest> puts = new ArrayList<>();
            for (int i = 0; i < 1_000; i++) {
                puts.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item("p" + i, 0,
                        i % 10 == 0 ? "open" : "closed")).build()).build());
            }
            for (int i = 0; i < puts.size(); i += 25) {
                List<WriteRequest> batch = puts.subList(i, i + 25);
                dynamo.batchWriteItem(b -> b.requestItems(Map.of(t, batch)));
            }
            for (int second = 0; second < 30; second++) {
                for (int i = 0; i < 5; i++) {
                    dynamo.scan(s -> s.tableName(t).filterExpression("#s = :o")
                            .expressionAttributeNames(Map.of("#s", "status"))
                            .expressionAttributeValues(Map.of(":o", AttributeValue.fromS("open"))));
                }
                CLOCK.advance(Duration.ofSeconds(1));
            }
            scanned = t;
        }
        return scanned;
    }

    /** Writes of 10 write units against 1 a second and its 300 s of burst, the clock standing still. */
    private String throttled() {
        if (throttled == null) {
            String t = table(BillingMode.PROVISIONED);
            AtomicInteger sk = new AtomicInteger();
            assertThrows(ProvisionedThroughputExceededException.class, () -> {
                for (int i = 0; i < 100; i++) putItems(t, 1, n -> item("k" + sk.incrementAndGet(), 1, KB_10));
            });
            throttledWrites = sk.get() - 1;
            throttled = t;
        }
        return throttled;
    }

    // ---- one test per page ----------------------------------------------------------------------

    @Test
    @Order(1)
    void overviewListsATableCreatedWhileItIsOpenWithoutReloading() {
        String t = table(BillingMode.PAY_PER_REQUEST);
        browser.open(url("/console/"));
        browser.find("#tables tr[data-table='" + t + "']");
        browser.script("window.statorMarker = 'same page';");

        String later = table(BillingMode.PAY_PER_REQUEST);
        putItems(later, 5, i -> item("k" + i, i, "x"));
        WebElement row = browser.find("#tables tr[data-table='" + later + "']");
        assertEquals("same page", browser.script("return window.statorMarker;"), "updated in place, not reloaded");
        assertTrue(row.getText().contains("PAY_PER_REQUEST"), row.getText());
        browser.until(d -> d.findElement(By.cssSelector("#tables tr[data-table='" + later + "'] td:nth-child(4)"))
                .getText().equals("5"));
        assertEquals("same page", browser.script("return window.statorMarker;"));
        assertTrue(browser.find("#dollars").getText().startsWith("$"), browser.find("#dollars").getText());
        browser.screenshot("overview");
    }

    @Test
    @Order(2)
    void heatMapColoursTheHotKeysRowPastTheCeilingAndItsCellListsTheKey() {
        HotKey hot = hotKey();
        browser.open(url("/console/tables/" + hot.table() + "/heat-map"));
        browser.find("#heatmap canvas");
        List<WebElement> rows = browser.driver().findElements(By.cssSelector("#heat-rows tr"));
        List<Integer> over = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            if (Double.parseDouble(rows.get(r).getAttribute("data-max-share")) > 1.0) over.add(r);
        }
        assertEquals(1, over.size(), "one modelled partition past its ceiling");
        int hotRow = over.get(0);
        String hotRowText = rows.get(hotRow).getAttribute("textContent");
        assertTrue(hotRowText.contains("pk=\"hot\""), hotRowText);
        String series = browser.find("#heatmap").getAttribute("data-series");
        assertTrue(series.contains("\"modelled\":true"), series);
        assertTrue(browser.find(".banner").getText().startsWith("Modelled partitions"));

        // Its cell, clicked where ECharts drew it, lists the key first.
        @SuppressWarnings("unchecked")
        List<Long> columns = (List<Long>) browser.script(
                "return JSON.parse(document.getElementById('heatmap').getAttribute('data-series')).columns;");
        int column = columns.indexOf(hot.second());
        assertTrue(column >= 0, "the hot second is a column: " + columns);
        clickCell(column, hotRow);
        WebElement first = browser.find("#cell-keys tbody tr");
        assertTrue(first.getText().startsWith("pk=\"hot\""), first.getText());
        assertTrue(first.getText().contains("1,010"), first.getText());
        // The panel stays through the page's refreshes.
        browser.nextRefresh();
        assertTrue(browser.find("#cell-keys tbody tr").getText().startsWith("pk=\"hot\""));
        browser.screenshot("heat-map");
    }

    @Test
    @Order(3)
    void topKeysListsTheHotKeyFirst() {
        HotKey hot = hotKey();
        browser.open(url("/console/tables/" + hot.table() + "/top-keys"));
        WebElement top = browser.find("#most-accessed-partition-keys tbody tr");
        assertTrue(top.getText().contains("pk=\"hot\""), top.getText());
        assertTrue(top.getText().contains("3,030"), "3 x 1,010 write units: " + top.getText());
        assertTrue(browser.find("#most-accessed-partition-keys-chart").getAttribute("data-series").contains("\"hot\""));
        assertTrue(browser.find("#most-accessed-items tbody tr").getText().contains("pk=\"hot\", sk="));
        browser.screenshot("top-keys");
    }

    private void clickCell(int column, int row) {
        WebElement chart = browser.find("#heatmap");
        @SuppressWarnings("unchecked")
        List<Number> pixel = (List<Number>) browser.script("return statorConsole.cellPixel(arguments[0], arguments[1]);",
                column, row);
        int x = (int) Math.round(pixel.get(0).doubleValue() - chart.getSize().getWidth() / 2.0);
        int y = (int) Math.round(pixel.get(1).doubleValue() - chart.getSize().getHeight() / 2.0);
        new Actions(browser.driver()).moveToElement(chart, x, y).click().perform();
    }

    @Test
    @Order(4)
    void findingsShowTheScanOnAHotPathWithItsDollars() {
        String t = scanned();
        browser.open(url("/console/findings?table=" + t));
        WebElement f7 = browser.find("article[data-finding='F7']");
        assertTrue(f7.getText().contains("F7: Scan on a hot path"), f7.getText());
        String dollars = f7.findElement(By.cssSelector(".dollars")).getText();
        assertTrue(dollars.matches("\\$[0-9,.]+ a month"), dollars);
        double api = AdvisorApi.number(AdvisorApi.findings(server.port(), t, "F7").get(0), "dollarsPerMonth");
        assertEquals(Format.dollars(api) + " a month", dollars, "the page shows the read API's figure");
        assertTrue(f7.getText().contains("Fix."), f7.getText());
        assertTrue(f7.findElement(By.cssSelector(".sources")).getText().contains("bp-query-scan"));
        browser.screenshot("findings");
        // Silenced in this browser, shown again on request.
        f7.findElement(By.cssSelector("button.silence")).click();
        browser.until(d -> !d.findElement(By.cssSelector("article[data-finding='F7']")).isDisplayed());
        browser.nextRefresh();
        assertFalse(browser.find("article[data-finding='F7']").isDisplayed(), "silenced through a refresh");
        browser.find("button.unsilence").click();
        browser.until(d -> d.findElement(By.cssSelector("article[data-finding='F7']")).isDisplayed());
    }

    @Test
    @Order(5)
    void accessPatternsListTheScanWithItsCostAndSortByAnyColumn() {
        String t = scanned();
        browser.open(url("/console/tables/" + t + "/access-patterns"));
        WebElement scan = browser.find("#access-patterns tr[data-signature='Scan | filter: status']");
        assertTrue(scan.getText().contains("150"), "its calls: " + scan.getText());
        List<Double> costs = browser.driver().findElements(By.cssSelector("#access-patterns tbody tr")).stream()
                .map(e -> Double.parseDouble(e.getAttribute("data-dollars"))).toList();
        assertEquals(costs.stream().sorted(java.util.Comparator.reverseOrder()).toList(), costs, "costliest first");
        browser.screenshot("access-patterns");
        browser.driver().findElement(By.linkText("Access pattern")).click();
        browser.until(d -> d.getCurrentUrl().contains("sort=signature"));
        List<String> signatures = signatures();
        assertEquals(signatures.stream().sorted().toList(), signatures);
        browser.nextRefresh();
        assertEquals(signatures, signatures(), "a refresh keeps the order");
    }

    private static List<String> signatures() {
        return browser.driver().findElements(By.cssSelector("#access-patterns tbody tr")).stream()
                .map(e -> e.getAttribute("data-signature")).toList();
    }

    @Test
    @Order(6)
    void costShowsEachModeAndClassAndThePricesDate() {
        String t = scanned();
        browser.open(url("/console/cost?table=" + t));
        List<WebElement> whatIf = browser.driver().findElements(By.cssSelector("section.cost td[data-mode]"));
        assertEquals(4, whatIf.size(), "two capacity modes by two table classes");
        assertEquals("PAY_PER_REQUEST", browser.find("section.cost td.now").getAttribute("data-mode"));
        assertEquals(io.stator.engine.advisor.Prices.standard().date(), browser.find("#prices-date").getText());
        assertTrue(browser.find("section.cost table.patterns").getText().contains("Scan | filter: status"));
        assertTrue(browser.find("section.cost table.resources").getText().contains("storage"));
        browser.screenshot("cost");
    }

    @Test
    @Order(7)
    void throttleEventsListTheThrottledWritesWithTheReason() {
        String t = throttled();
        browser.open(url("/console/tables/" + t + "/throttle-events"));
        WebElement event = browser.find("#throttle-events tbody tr");
        assertTrue(event.getText().contains("PutItem"), event.getText());
        assertEquals("TableWriteProvisionedThroughputExceeded", event.findElement(By.cssSelector(".reason")).getText());
        assertTrue(event.getText().contains(":table/" + t), event.getText());
        assertTrue(browser.find("#throttle-timeline").getAttribute("data-series")
                .contains("TableWriteProvisionedThroughputExceeded"));
        browser.screenshot("throttle-events");
    }

    @Test
    @Order(8)
    void tableShowsItsShapeSizesAndItems() {
        String t = throttled();
        browser.open(url("/console/tables/" + t));
        assertEquals(String.valueOf(throttledWrites), browser.find("#item-count").getText(), "every write but the refused");
        assertTrue(browser.find("#key-schema").getText().contains("pk (S)"));
        assertEquals(Math.min(25, throttledWrites), browser.driver().findElements(By.cssSelector("#items tbody tr")).size());
        String sizes = browser.find("#item-sizes-chart").getAttribute("data-series");
        assertTrue(sizes.contains("\"label\":\"8-16 KB\",\"lowBytes\":8192,\"count\":" + throttledWrites), sizes);
        browser.screenshot("table");
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private String table(BillingMode mode) {
        String name = "Console" + UNIQUE.incrementAndGet();
        dynamo.createTable(b -> {
            b.tableName(name).billingMode(mode)
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType(ScalarAttributeType.S),
                            a -> a.attributeName("sk").attributeType(ScalarAttributeType.N))
                    .keySchema(k -> k.attributeName("pk").keyType("HASH"), k -> k.attributeName("sk").keyType("RANGE"));
            if (mode == BillingMode.PROVISIONED) b.provisionedThroughput(p -> p.readCapacityUnits(1L).writeCapacityUnits(1L));
        });
        return name;
    }

    private static Map<String, AttributeValue> item(String pk, int sk, String status) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("pk", AttributeValue.fromS(pk));
        item.put("sk", AttributeValue.fromN(Integer.toString(sk)));
        item.put("status", AttributeValue.fromS(status));
        return item;
    }

    private void putItems(String table, int n, IntFunction<Map<String, AttributeValue>> items) {
        for (int i = 0; i < n; i++) {
            Map<String, AttributeValue> item = items.apply(i);
            dynamo.putItem(p -> p.tableName(table).item(item));
        }
    }
}

package io.stator.engine.advisor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.capacity.CapacityMeter;
import io.stator.engine.table.ContributorInsightsSetting.Mode;
import io.stator.engine.table.ContributorInsightsSetting.Status;
import io.stator.engine.table.TableCodec;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.testing.MovableClock;
import io.stator.engine.testing.TestEngine;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Contributor Insights' settings: their transitions by the clock, their rules, their storage. */
class ContributorInsightsTest {

    private static final Instant START = Instant.parse("2026-12-01T00:00:00Z");

    @TempDir
    Path directory;

    @Test
    void enablingBecomesEnabledAndDisablingDisabledAsTimePasses() {
        MovableClock clock = new MovableClock(START);
        try (TestEngine test = TestEngine.open(directory, new CapacityMeter(), clock)) {
            test.createTable("t", true, List.of(TestEngine.globalIndex("g")), null);
            ContributorInsights ci = test.engine().contributorInsights();
            ContributorInsights.Description never = ci.describe("t", null);
            assertEquals(Status.DISABLED, never.status());
            assertNull(never.mode());
            assertNull(never.lastUpdateDateTime());

            ContributorInsights.Description enabling = ci.update("t", null, ContributorInsights.Action.ENABLE, null);
            assertEquals(Status.ENABLING, enabling.status());
            assertEquals(Mode.ACCESSED_AND_THROTTLED_KEYS, enabling.mode());
            assertEquals(List.of(), enabling.rules());
            clock.advance(Duration.ofMillis(999));
            assertEquals(Status.ENABLING, ci.describe("t", null).status());
            clock.advance(Duration.ofMillis(1));
            ContributorInsights.Description enabled = ci.describe("t", null);
            assertEquals(Status.ENABLED, enabled.status());
            assertEquals(START.plusSeconds(1), enabled.lastUpdateDateTime());
            long stamp = START.toEpochMilli();
            assertEquals(List.of("DynamoDBContributorInsights-PKC-t-" + stamp, "DynamoDBContributorInsights-SKC-t-" + stamp,
                    "DynamoDBContributorInsights-PKT-t-" + stamp, "DynamoDBContributorInsights-SKT-t-" + stamp),
                    enabled.rules());
            // The same mode again changes nothing; another mode is ENABLING again, with the same rules' stamp.
            assertEquals(Status.ENABLED, ci.update("t", null, ContributorInsights.Action.ENABLE, null).status());
            clock.advance(Duration.ofSeconds(5));
            assertEquals(Status.ENABLING, ci.update("t", null, ContributorInsights.Action.ENABLE, Mode.THROTTLED_KEYS).status());
            clock.advance(Duration.ofSeconds(1));
            assertEquals(List.of("DynamoDBContributorInsights-PKT-t-" + stamp, "DynamoDBContributorInsights-SKT-t-" + stamp),
                    ci.describe("t", null).rules());
            // DISABLE answers the mode in force, whatever it was sent.
            ContributorInsights.Description disabling = ci.update("t", null, ContributorInsights.Action.DISABLE,
                    Mode.ACCESSED_AND_THROTTLED_KEYS);
            assertEquals(Status.DISABLING, disabling.status());
            assertEquals(Mode.THROTTLED_KEYS, disabling.mode());
            clock.advance(Duration.ofSeconds(2));
            ContributorInsights.Description disabled = ci.describe("t", null);
            assertEquals(Status.DISABLED, disabled.status());
            assertEquals(Mode.THROTTLED_KEYS, disabled.mode());
            assertEquals(List.of(), disabled.rules());
            assertEquals(Status.DISABLED, ci.update("t", null, ContributorInsights.Action.DISABLE, null).status());

            // The index, on its own; a table's before its indexes in the list; DISABLED left out.
            ci.update("t", "g", ContributorInsights.Action.ENABLE, null);
            ci.update("t", null, ContributorInsights.Action.ENABLE, null);
            ContributorInsights.Page first = ci.list(null, null, 1);
            assertEquals(1, first.summaries().size());
            assertNull(first.summaries().get(0).indexName());
            ContributorInsights.Page second = ci.list(null, first.nextToken(), 1);
            assertEquals("g", second.summaries().get(0).indexName());
            assertNull(second.nextToken());
            clock.advance(Duration.ofSeconds(1));
            assertEquals(List.of("DynamoDBContributorInsights-PKC-t-g-" + clock.millis(),
                    "DynamoDBContributorInsights-SKC-t-g-" + clock.millis(), "DynamoDBContributorInsights-PKT-t-g-"
                            + clock.millis(), "DynamoDBContributorInsights-SKT-t-g-" + clock.millis()).size(),
                    ci.describe("t", "g").rules().size());
        }
    }

    @Test
    void unknownResourcesAndResourcesNotActiveAreRefusedWithDynamoDbsTexts() {
        MovableClock clock = new MovableClock(START);
        try (TestEngine test = TestEngine.open(directory, new CapacityMeter(), clock)) {
            test.createTable("t", true, null, List.of(TestEngine.localIndex("l")));
            ContributorInsights ci = test.engine().contributorInsights();
            DynamoDbException missing = assertThrows(DynamoDbException.class, () -> ci.describe("nope", null));
            assertEquals("Requested resource not found: Table: nope not found", missing.getMessage());
            DynamoDbException local = assertThrows(DynamoDbException.class,
                    () -> ci.update("t", "l", ContributorInsights.Action.ENABLE, null));
            assertEquals("Requested resource not found: Index: l not found for table: t", local.getMessage());
            assertThrows(DynamoDbException.class, () -> ci.list("nope", null, 10));
            assertThrows(DynamoDbException.class, () -> ci.list(null, "not a token", 10));
        }
    }

    @Test
    void pastTheRuleQuotaAnEnableFails() {
        MovableClock clock = new MovableClock(START);
        try (TestEngine test = TestEngine.open(directory, new CapacityMeter(), clock)) {
            ContributorInsights ci = test.engine().contributorInsights();
            // 25 tables with a sort key take 4 rules each: the quota of 100.
            for (int i = 0; i < 26; i++) test.createTable("t" + i, true, null, null);
            for (int i = 0; i < 25; i++) ci.update("t" + i, null, ContributorInsights.Action.ENABLE, null);
            ContributorInsights.Description answer = ci.update("t25", null, ContributorInsights.Action.ENABLE, null);
            assertEquals(Status.ENABLING, answer.status(), "accepted all the same");
            clock.advance(Duration.ofSeconds(2));
            ContributorInsights.Description failed = ci.describe("t25", null);
            assertEquals(Status.FAILED, failed.status());
            assertArrayEquals(new String[] {"LimitExceededException", ContributorInsights.LIMIT_EXCEEDED_TEXT},
                    failed.failure());
            assertEquals(List.of(), failed.rules());
            // Room made: a new enable succeeds.
            ci.update("t0", null, ContributorInsights.Action.DISABLE, null);
            ci.update("t25", null, ContributorInsights.Action.ENABLE, null);
            clock.advance(Duration.ofSeconds(1));
            assertEquals(Status.ENABLED, ci.describe("t25", null).status());
        }
    }

    @Test
    void theSettingIsStoredWithTheTableAndOlderEntriesHaveNone() {
        MovableClock clock = new MovableClock(START);
        try (TestEngine test = TestEngine.open(directory, new CapacityMeter(), clock)) {
            test.createTable("t", true, List.of(TestEngine.globalIndex("g")), null);
            ContributorInsights ci = test.engine().contributorInsights();
            ci.update("t", null, ContributorInsights.Action.ENABLE, Mode.THROTTLED_KEYS);
            ci.update("t", "g", ContributorInsights.Action.ENABLE, null);
            TableDefinition table = test.engine().catalog().find("t");
            assertEquals(2, table.contributorInsights().size());
            assertEquals(table, TableCodec.decode(TableCodec.encode(table)));
            byte[] latest = TableCodec.encode(table);
            byte[] v5 = java.util.Arrays.copyOf(latest, latest.length);
            v5[0] = 5;
            assertEquals(java.util.Map.of(), TableCodec.decode(v5).contributorInsights());
        }
        try (TestEngine reopened = TestEngine.open(directory, new CapacityMeter(), new MovableClock(START.plusSeconds(5)))) {
            assertEquals(Status.ENABLED, reopened.engine().contributorInsights().describe("t", "g").status());
            assertEquals(Mode.THROTTLED_KEYS, reopened.engine().contributorInsights().describe("t", null).mode());
        }
    }
}

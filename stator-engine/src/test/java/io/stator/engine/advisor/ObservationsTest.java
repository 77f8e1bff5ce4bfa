package io.stator.engine.advisor;

import static io.stator.engine.testing.TestEngine.item;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.expression.Condition;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import io.stator.core.expression.UpdateAction;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.engine.Engine;
import io.stator.engine.EngineConfig;
import io.stator.engine.capacity.CapacityMeter;
import io.stator.engine.capacity.Throughput;
import io.stator.engine.capacity.ThroughputExceededException;
import io.stator.engine.capacity.ThroughputSettings;
import io.stator.engine.item.RowKeys;
import io.stator.engine.read.ComparisonOperator;
import io.stator.engine.read.KeyConditions.KeyCondition;
import io.stator.engine.read.QuerySpec;
import io.stator.engine.table.TableArns;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.testing.MovableClock;
import io.stator.engine.testing.TestEngine;
import io.stator.engine.write.ItemUpdate;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The advisor's observations on a real engine (RocksDB in a temporary directory) with a clock
 * the test moves: Contributor Insights' figures exactly, PartiQL left out of them, the keys past
 * the exact cap sketched in bounded memory, the modelled partitions, the access patterns, the
 * throttles.
 */
class ObservationsTest {

    private static final Instant START = Instant.parse("2026-12-01T00:00:00Z");

    @TempDir
    java.nio.file.Path directory;

    private static Map<String, AttributeValue> key(String pk, int sk) {
        return item("pk", pk, "sk", sk);
    }

    private static void put(Engine engine, TableDefinition table, Map<String, AttributeValue> item) {
        engine.items().write(ItemWrite.put(table, item, null, ReturnValues.NONE, false, false));
    }

    @Test
    void contributorInsightsFiguresAreThePerMinuteMaximumOfThreeWritesAndReads() {
        MovableClock clock = new MovableClock(START);
        try (TestEngine test = TestEngine.open(directory, new CapacityMeter(), clock)) {
            Engine engine = test.engine();
            TableDefinition table = test.createTable("skewed", true, null, null);
            // Minute 1: hot written 5 times (1 WCU each) and read 4 times eventually (0.5 RCU each):
            // 3 x 5 + 2 = 17. warm written twice: 6. cold read strongly 3 times, absent (1 RCU each): 3.
            for (int i = 0; i < 5; i++) put(engine, table, item("pk", "hot", "sk", 1, "v", i));
            for (int i = 0; i < 4; i++) engine.items().get(table, key("hot", 1), false, null);
            for (int i = 0; i < 2; i++) put(engine, table, item("pk", "warm", "sk", 1, "v", i));
            for (int i = 0; i < 3; i++) engine.items().get(table, key("cold", 1), true, null);
            // Minute 2: hot written once more (3), warm 4 times (12): warm's maximum is now 12.
            clock.advance(Duration.ofSeconds(61));
            put(engine, table, item("pk", "hot", "sk", 1, "v", 9));
            for (int i = 0; i < 4; i++) put(engine, table, item("pk", "warm", "sk", 1, "v", i));

            Reports.TopKeys top = engine.observations().topKeys(table, null, 60, 10);
            List<Reports.Contributor> pks = top.mostAccessedPartitionKeys();
            assertEquals(3, pks.size());
            assertContributor(pks.get(0), "hot", 17, 20);
            assertContributor(pks.get(1), "warm", 12, 18);
            assertContributor(pks.get(2), "cold", 3, 3);
            assertEquals(List.of(new Reports.Datapoint(START.getEpochSecond() / 60, 17),
                    new Reports.Datapoint(START.getEpochSecond() / 60 + 1, 3)), pks.get(0).datapoints());
            List<Reports.Contributor> items = top.mostAccessedItems();
            assertEquals(key("hot", 1), items.get(0).key());
            assertEquals(17, items.get(0).maximum());
            assertEquals(List.of(), top.mostThrottledPartitionKeys());
            assertEquals(2, engine.observations().topKeys(table, null, 60, 2).mostAccessedPartitionKeys().size());
            // Only the last minute: hot's 3, warm's 12.
            Reports.TopKeys last = engine.observations().topKeys(table, null, 1, 10);
            assertContributor(last.mostAccessedPartitionKeys().get(0), "warm", 12, 12);
            assertContributor(last.mostAccessedPartitionKeys().get(1), "hot", 3, 3);
        }
    }

    private static void assertContributor(Reports.Contributor c, String pk, double maximum, double sum) {
        assertEquals(Map.of("pk", new AttributeValue.S(pk)), c.key());
        assertEquals(maximum, c.maximum(), pk);
        assertEquals(sum, c.sum(), pk);
        assertFalse(c.approximate(), pk);
    }

    @Test
    void partiqlIsLeftOutOfContributorInsightsButNotOutOfTheTraffic() {
        MovableClock clock = new MovableClock(START);
        try (TestEngine test = TestEngine.open(directory, new CapacityMeter(), clock)) {
            Engine engine = test.engine();
            TableDefinition table = test.createTable("partiql", false, null, null);
            for (int i = 0; i < 4; i++) engine.items().get(Operation.EXECUTE_STATEMENT, table, item("pk", "a"), true, null);
            engine.items().write(Operation.EXECUTE_STATEMENT, ItemWrite.put(table, item("pk", "a"), null,
                    ReturnValues.NONE, false, false));
            Reports.TopKeys top = engine.observations().topKeys(table, null, 60, 10);
            assertEquals(List.of(), top.mostAccessedPartitionKeys());
            assertNull(top.mostAccessedItems(), "no sort key: no items' graphs");
            ResourceSummary second = engine.observations().seconds(table, null).getLast();
            assertEquals(8, second.readHalves(), "4 strongly consistent reads of 1 unit");
            assertEquals(2, second.writeHalves());
            assertEquals(0, second.insightsHalves());
            KeyFigures a = second.partitionKeys().get(KeyTable.Measure.READ).get(0);
            assertEquals(8, a.readHalves());
            assertEquals(5, a.requests());
            Reports.AccessPatterns patterns = engine.observations().accessPatterns(table, 60);
            assertEquals(List.of("ExecuteStatement GetItem: pk = :v | consistent", "ExecuteStatement PutItem: pk = :v"),
                    patterns.patterns().stream().map(p -> p.signature().describe()).toList());
        }
    }

    @Test
    void keysPastTheCapAreSketchedInBoundedMemory() {
        MovableClock clock = new MovableClock(START);
        try (TestEngine test = TestEngine.open(directory, new CapacityMeter(), clock)) {
            TableDefinition table = test.createTable("many", false, null, null);
            int cap = 64;
            Observations observations = new Observations(clock, PartitionMap.ONE, cap);
            // A hot key first (it is counted exactly), then 20,000 distinct keys, then a late hot one;
            // the next second, the late key first, then 20,000 more.
            for (int i = 0; i < 500; i++) observations.write(Operation.PUT_ITEM, write(table, "hot"), units(1), false);
            for (int i = 0; i < 20_000; i++) observations.write(Operation.PUT_ITEM, write(table, "k" + i), units(1), false);
            for (int i = 0; i < 300; i++) observations.write(Operation.PUT_ITEM, write(table, "late"), units(1), false);

            ResourceObservations resource = observations.resource(table, null);
            // A second counts its first keys only: a key hot enough for a one-second limit is among them.
            ResourceSummary second = resource.seconds(clock.millis()).getLast();
            assertEquals(cap, second.distinctPartitionKeys());
            assertFalse(second.partitionKeysListed());
            assertEquals(20_800 * 2, second.writeHalves(), "every request in the second's totals");
            List<KeyFigures> secondTop = second.partitionKeys().get(KeyTable.Measure.WRITE);
            assertEquals(Map.of("pk", new AttributeValue.S("hot")), secondTop.get(0).key().values(table, null));
            assertTrue(secondTop.stream().noneMatch(f -> f.key().values(table, null).equals(Map.of("pk",
                    new AttributeValue.S("late")))), "met past the cap: left out of the second");

            clock.advance(java.time.Duration.ofSeconds(1));
            for (int i = 0; i < 300; i++) observations.write(Operation.PUT_ITEM, write(table, "late"), units(1), false);
            for (int i = 0; i < 20_000; i++) observations.write(Operation.PUT_ITEM, write(table, "m" + i), units(1), false);
            // The minute is its seconds summed: past its cap, the keys go to its sketches.
            ResourceSummary minute = resource.minutes(clock.millis()).getLast();
            assertEquals(41_100 * 2, minute.writeHalves());
            assertTrue(minute.distinctPartitionKeys() >= 2 * cap, "at least each second's first keys: "
                    + minute.distinctPartitionKeys());
            assertFalse(minute.partitionKeysListed());
            List<KeyFigures> top = minute.partitionKeys().get(KeyTable.Measure.WRITE);
            assertEquals(Map.of("pk", new AttributeValue.S("hot")), top.get(0).key().values(table, null));
            assertTrue(top.get(0).exact());
            assertEquals(1000, top.get(0).writeHalves());
            KeyFigures late = top.get(1);
            assertEquals(Map.of("pk", new AttributeValue.S("late")), late.key().values(table, null));
            assertFalse(late.exact(), "met past the minute's cap: estimated");
            assertTrue(late.writeHalves() >= 600 && late.writeHalves() - late.errorHalves() <= 600,
                    "the estimate bounds the truth: " + late);
            // The exact map stays at its cap, whatever the number of keys.
            ResourceWindow open = new ResourceWindow(0, new long[] {0}, cap, true);
            for (int i = 0; i < 10_000; i++) {
                open.record(KeyBytes.partition(RowKeys.of(table, item("pk", "x" + i))), null, 0, sample(2), List.of(), -1);
            }
            assertEquals(cap, open.partitionKeys.exactKeys());
            Reports.TopKeys report = observations.topKeys(table, null, 60, 2);
            assertEquals("hot", ((AttributeValue.S) report.mostAccessedPartitionKeys().get(0).key().get("pk")).value());
            assertFalse(report.mostAccessedPartitionKeys().get(0).approximate());
            assertTrue(report.mostAccessedPartitionKeys().get(1).approximate());
        }
    }

    private static KeyCounter.Sample sample(long writeHalves) {
        return new KeyCounter.Sample(0, writeHalves, 3 * writeHalves, 0, 0, 0, 0);
    }

    private static io.stator.engine.capacity.ConsumedCapacity units(double tableUnits) {
        return io.stator.engine.capacity.ConsumedCapacity.ofTable(tableUnits);
    }

    private static ObservedWrite write(TableDefinition table, String pk) {
        Map<String, AttributeValue> item = item("pk", pk);
        return new ObservedWrite(table, ItemWrite.PUT, RowKeys.of(table, item), null, List.of(), null, item, 0, 10,
                List.of(), true);
    }

    @Test
    void partitionsShowTheirUnitsPerSecond() {
        MovableClock clock = new MovableClock(START);
        CapacityMeter meter = new CapacityMeter(new Throughput(clock, ThroughputSettings.DEFAULTS,
                new TableArns(EngineConfig.DEFAULT_REGION, EngineConfig.DEFAULT_ACCOUNT_ID)));
        try (TestEngine test = TestEngine.open(directory, meter, clock)) {
            Engine engine = test.engine();
            TableDefinition table = test.createTable("parts", false, null, null);
            // p0 written twice in the first second: the busiest key of its partition then as well
            // (each second keeps its partitions' top keys only, and ~10 keys share a partition).
            for (int i = 0; i < 40; i++) put(engine, table, item("pk", "p" + i));
            put(engine, table, item("pk", "p0"));
            clock.advance(Duration.ofSeconds(1));
            for (int i = 0; i < 10; i++) put(engine, table, item("pk", "p0"));
            Reports.Partitions report = engine.observations().partitions(table, null, 60);
            assertEquals(4, report.partitions().size(), "a new on-demand table: 4 partitions");
            double total = 0;
            for (Reports.Partition p : report.partitions()) total += p.writeUnits();
            assertEquals(51, total);
            long hash = io.stator.core.key.KeyLayout.hashOf(RowKeys.of(table, item("pk", "p0")));
            Reports.Partition holding = null;
            for (Reports.Partition p : report.partitions()) {
                if (Long.compareUnsigned(p.firstHash(), hash) <= 0
                        && (p.lastHash() == -1 || Long.compareUnsigned(hash, p.lastHash()) <= 0)) holding = p;
            }
            assertEquals(10, holding.peakWriteUnitsPerSecond(), 1e-9);
            assertEquals(Map.of("pk", new AttributeValue.S("p0")), holding.topKeys().get(0).key());
            assertEquals(12, holding.topKeys().get(0).writeUnits());
        }
    }

    @Test
    void accessPatternsCountWhatTheyScanKeepAndMove() {
        MovableClock clock = new MovableClock(START);
        try (TestEngine test = TestEngine.open(directory, new CapacityMeter(), clock)) {
            Engine engine = test.engine();
            TableDefinition table = test.createTable("patterns", true, List.of(TestEngine.globalIndex("g")), null);
            for (int i = 0; i < 10; i++) {
                put(engine, table, item("pk", "p", "sk", i, "gpk", "a", "gsk", i, "kept", i == 3 ? "yes" : "no"));
            }
            Condition filter = new Condition.Comparison(Condition.Comparator.EQ, new Operand.PathOperand(Path.of("kept")),
                    new Operand.Constant(new AttributeValue.S("yes")));
            for (int q = 0; q < 2; q++) {
                engine.items().query(table, new QuerySpec(null, Map.of("pk", new KeyCondition(ComparisonOperator.EQ,
                        List.of(new AttributeValue.S("p")))), filter, false, null, null, null, Integer.MAX_VALUE, true, true));
            }
            // An update that moves the item's index key (gpk a -> b).
            engine.items().write(ItemWrite.update(table, key("p", 1), null, ReturnValues.NONE, false,
                    new ItemUpdate.Expression(List.of(new UpdateAction.Set(Path.of("gpk"),
                            new Operand.Constant(new AttributeValue.S("b")))))));
            clock.advance(Duration.ofSeconds(3));

            Map<String, PatternFigures> byPattern = new java.util.HashMap<>();
            for (PatternFigures p : engine.observations().accessPatterns(table, 60).patterns()) {
                byPattern.put(p.signature().describe(), p);
            }
            PatternFigures query = byPattern.get("Query: pk = :v | filter: kept | consistent");
            assertEquals(2, query.calls());
            assertEquals(20, query.scanned());
            assertEquals(2, query.returned());
            assertEquals(2, query.peakCallsPerSecond());
            assertEquals(1, query.activeSeconds());
            PatternFigures update = byPattern.get("UpdateItem: pk = :v AND sk = :v | update: SET gpk");
            assertEquals(1, update.calls());
            PatternFigures.IndexFigures g = update.indexes().get("g");
            assertEquals(1, g.keyMoves());
            assertEquals(Map.of("gpk", 1L), g.movedAttributes());
            assertEquals(4, g.writeHalves(), "a move is a delete and a put: 2 units");
            assertEquals(10, byPattern.get("PutItem: pk = :v AND sk = :v").calls());
            // The index's own traffic: its entries' keys, b once (the move), a eleven times.
            Reports.TopKeys index = engine.observations().topKeys(table, table.index("g"), 60, 10);
            assertEquals(Map.of("gpk", new AttributeValue.S("a")), index.mostAccessedPartitionKeys().get(0).key());
            assertEquals(33, index.mostAccessedPartitionKeys().get(0).maximum(), "10 puts and a removal: 11 x 3");
            assertEquals(3, index.mostAccessedPartitionKeys().get(1).maximum());
            List<Reports.Contributor> entries = index.mostAccessedItems();
            assertEquals(10, entries.size());
            assertEquals(Map.of("gpk", new AttributeValue.S("a"), "gsk", new AttributeValue.N(DynamoNumber.parse("1"))),
                    entries.get(0).key(), "the moved entry: written, then removed");
            assertEquals(6, entries.get(0).maximum());
            assertEquals(3, entries.get(1).maximum());
        }
    }

    @Test
    void throttlesAreCountedAsContributorInsightsCountsThem() throws Exception {
        MovableClock clock = new MovableClock(START);
        CapacityMeter meter = new CapacityMeter(new Throughput(clock, ThroughputSettings.DEFAULTS,
                new TableArns(EngineConfig.DEFAULT_REGION, EngineConfig.DEFAULT_ACCOUNT_ID)));
        try (TestEngine test = TestEngine.open(directory, meter, clock)) {
            Engine engine = test.engine();
            TableDefinition table = test.createTable("throttled", false, List.of(TestEngine.globalIndex("byGpk")), null);
            // One partition key takes at most 1,000 write units a second, with two seconds of burst.
            int throttledTable = 0;
            for (int i = 0; i < 2_050; i++) {
                try {
                    put(engine, table, item("pk", "hot", "v", i));
                } catch (ThroughputExceededException e) {
                    throttledTable++;
                }
            }
            assertTrue(throttledTable > 0);
            clock.advance(Duration.ofSeconds(3)); // the table's partitions refill
            // A global index's hot key throttles the table's writes: Contributor Insights does not count them.
            int throttledIndex = 0;
            for (int i = 0; i < 2_050; i++) {
                try {
                    put(engine, table, item("pk", "k" + i, "gpk", "same", "gsk", 1));
                } catch (ThroughputExceededException e) {
                    assertEquals("IndexWriteKeyRangeThroughputExceeded", e.reasons().get(0).reason());
                    throttledIndex++;
                }
            }
            assertTrue(throttledIndex > 0);
            Reports.TopKeys top = engine.observations().topKeys(table, null, 60, 25);
            assertEquals(1, top.mostThrottledPartitionKeys().size(), "only the table's own throttles");
            assertEquals(throttledTable, top.mostThrottledPartitionKeys().get(0).maximum());
            Reports.TopKeys index = engine.observations().topKeys(table, table.index("byGpk"), 60, 25);
            assertEquals(List.of(), index.mostThrottledPartitionKeys(), "index write throttles are not measured");
            List<ThrottleEvent> events = engine.observations().throttleEvents(table);
            assertEquals(Math.min(TableObservations.THROTTLES_KEPT, throttledTable + throttledIndex), events.size());
            assertEquals("IndexWriteKeyRangeThroughputExceeded", events.getLast().reasons().get(0).reason());
            ResourceSummary minute = engine.observations().minutes(table, null).getLast();
            assertEquals((long) throttledTable, minute.throttleEvents().get("TableWriteKeyRangeThroughputExceeded"));
            ResourceSummary indexMinute = engine.observations().minutes(table, table.index("byGpk")).getLast();
            assertEquals((long) throttledIndex, indexMinute.throttleEvents().get("IndexWriteKeyRangeThroughputExceeded"));
        }
    }

    @Test
    void aSignatureKeepsItsBeginsWithPrefixAndLeavesValuesOut() {
        MovableClock clock = new MovableClock(START);
        try (TestEngine test = TestEngine.open(directory, new CapacityMeter(), clock)) {
            TableDefinition table = test.createTable("sig", true, null, null);
            Signature s = Signature.query(Operation.QUERY, table, null, Map.of(
                    "sk", new KeyCondition(ComparisonOperator.BEGINS_WITH, List.of(new AttributeValue.S("ORDER#"))),
                    "pk", new KeyCondition(ComparisonOperator.EQ, List.of(new AttributeValue.S("alice")))), null,
                    List.of(Path.of("b"), Path.of("a")), false, false);
            assertEquals("Query: pk = :v AND begins_with(sk, 'ORDER#') | projection: a, b", s.describe());
            assertEquals(Signature.scan(Operation.SCAN, null, null, null, true, false, 4).describe(),
                    "Scan | segments: 4 | select: COUNT");
        }
    }
}

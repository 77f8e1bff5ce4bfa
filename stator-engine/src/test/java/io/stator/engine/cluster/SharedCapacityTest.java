package io.stator.engine.cluster;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.capacity.CapacityMeter;
import io.stator.engine.capacity.ThroughputExceededException;
import io.stator.engine.capacity.Throughput;
import io.stator.engine.capacity.ThroughputSettings;
import io.stator.engine.capacity.Usage;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.table.CreateTableSpec;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableArns;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableDefinition.AttributeDefinition;
import io.stator.engine.table.TableSpecs;
import io.stator.engine.table.TableSpecs.KeyElement;
import io.stator.engine.testing.MovableClock;
import io.stator.engine.testing.TestEngine;
import io.stator.storage.CollectionStore;
import io.stator.storage.Cursor;
import io.stator.storage.LockingCollectionStore;
import io.stator.storage.RowKeyFraming;
import io.stator.storage.rocksdb.RocksStorage;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The throughput exchange between servers sharing a store ({@link SharedCapacity}), step by step:
 * each "server" is a throughput model of its own on one clock the test moves, and the test says
 * when each exchanges, so that what the cluster admits is exact. Over RocksDB behind the
 * collection-store contract; the two-server test on Cassandra ({@code ClusterThroughputTest})
 * runs the exchange in real time.
 */
class SharedCapacityTest {

    private static final long ONE_KEY = 42;

    @TempDir
    Path directory;

    private final MovableClock clock = new MovableClock(Instant.parse("2026-06-01T00:00:00Z"));
    private RocksStorage rocks;
    private CollectionStore store;
    private final Map<Long, TableDefinition> tables = new HashMap<>();
    private final Map<String, long[]> saved = new HashMap<>();

    @BeforeEach
    void open() {
        rocks = RocksStorage.open(directory, Keyspaces.ALL);
        store = new LockingCollectionStore(rocks, Keyspaces.ITEMS);
    }

    @AfterEach
    void close() {
        rocks.close();
    }

    /** A server: its throughput model and its side of the exchange. */
    private final class Server {
        final Throughput throughput;
        final SharedCapacity exchange;

        Server(long goneAfterMillis) {
            throughput = new Throughput(clock, new ThroughputSettings(ThroughputSettings.Mode.ENFORCE, 2_000,
                    ThroughputSettings.DEFAULT_TABLE_QUOTA_UNITS), new TableArns("us-east-1", "000000000000"),
                    new Throughput.Stored() {
                        @Override
                        public long bytes(TableDefinition table, IndexDefinition index) {
                            return 0;
                        }

                        @Override
                        public void savePartitionStarts(TableDefinition table, IndexDefinition index, long[] starts) {
                            saved.put(table.name() + (index == null ? "" : "/" + index.name()), starts);
                        }
                    });
            exchange = new SharedCapacity(store, new Deployment.Upkeep() {
                @Override public void rereadCatalog() { }
                @Override public boolean recount(long tableId) { return true; }
                @Override public void resumeJobs() { }
                @Override public List<Deployment.ObservedRow> observedHere() { return List.of(); }
                @Override public long observedMinute() { return 0; }
                @Override
                public List<Deployment.Consumption> consumedHere() {
                    List<Deployment.Consumption> out = new ArrayList<>();
                    throughput.consumedHere((table, index, read, write, starts, reads, writes) ->
                            out.add(new Deployment.Consumption(table, index, read, write, starts, reads, writes)));
                    return out;
                }

                @Override
                public boolean consumedElsewhere(Deployment.Consumption u) {
                    TableDefinition table = tables.get(u.tableId());
                    if (table == null) return false;
                    throughput.consumedElsewhere(table, u.indexId(), u.read(), u.write(), u.partitionStarts(),
                            u.partitionReads(), u.partitionWrites());
                    return true;
                }
            }, goneAfterMillis);
            exchange.publish(); // as SharedUpkeep does before the server serves
        }

        Server() {
            this(SharedCapacity.GONE_AFTER_MILLIS);
        }

        /** Writes of {@code units} KB on one key until the first is refused: how many were admitted. */
        int writesAdmittedNow(TableDefinition table, int units) {
            CapacityMeter meter = new CapacityMeter(throughput);
            Usage.Write write = new Usage.Write(0, units * 1024L, List.of(), false, ONE_KEY);
            int admitted = 0;
            while (admitted < 100_000) {
                try {
                    meter.admitWrite(table, write);
                } catch (ThroughputExceededException e) {
                    return admitted;
                }
                admitted++;
            }
            return admitted;
        }
    }

    /** A table made through an engine on the shared store (its definition as every server reads it). */
    private TableDefinition table(String name, String billingMode, TableSpecs.Throughput provisioned) {
        try (Engine engine = new Engine(new SharedStorage(store, Clock.systemUTC(), null), TestEngine.config(clock),
                new CapacityMeter())) {
            TableDefinition t = engine.tables().create(new CreateTableSpec(name,
                    List.of(new AttributeDefinition("pk", AttributeValue.Type.S)), List.of(new KeyElement("pk", "HASH")),
                    billingMode, provisioned, null, null, null, null, null, null, null, null, null, null, null));
            tables.put(t.id(), t);
            return t;
        }
    }

    @Test
    void twoServersTogetherAdmitWhatTheTableAdmits() {
        // 5 WCU provisioned: a bucket of 300 seconds, 1,500 units (its partition holds 2,000); writes of 10 units.
        TableDefinition table = table("t", "PROVISIONED", new TableSpecs.Throughput(5, 5));
        Server a = new Server();
        Server b = new Server();
        a.exchange.exchange();
        b.exchange.exchange();

        assertEquals(150, a.writesAdmittedNow(table, 10), "all of the table's burst through one server");
        a.exchange.exchange();
        b.exchange.exchange();
        assertEquals(0, b.writesAdmittedNow(table, 10), "the other server knows it is spent");

        clock.advance(Duration.ofSeconds(10)); // 50 units more for the table
        assertEquals(5, b.writesAdmittedNow(table, 10));
        b.exchange.exchange();
        a.exchange.exchange();
        assertEquals(0, a.writesAdmittedNow(table, 10), "what one took, the other does not admit again");

        // Sixty seconds of writes spread over both, exchanging every 250 ms: the table's rate.
        int admitted = 0;
        for (int tick = 0; tick < 240; tick++) {
            clock.advance(Duration.ofMillis(250));
            admitted += (tick % 2 == 0 ? a : b).writesAdmittedNow(table, 1);
            a.exchange.exchange();
            b.exchange.exchange();
        }
        assertEquals(300, admitted, 3, "5 units a second over 60 seconds");
    }

    @Test
    void aPartitionsCeilingIsTheClustersAndSplitsReachEveryServer() {
        TableDefinition table = table("od", "PAY_PER_REQUEST", null);
        Server a = new Server();
        Server b = new Server();
        a.exchange.exchange();
        b.exchange.exchange();

        // One key's partition holds two seconds of its 1,000 write units a second.
        assertEquals(200, a.writesAdmittedNow(table, 10));
        a.exchange.exchange();
        b.exchange.exchange();
        assertEquals(0, b.writesAdmittedNow(table, 10), "the partition is spent for the cluster");

        // Hot for two seconds (the split delay here) at 900 a second, taken half on each server:
        // the heat is the cluster's, and a split made on either is made on both.
        long[] before = a.throughput.partitionStarts(table, null);
        for (int second = 1; second <= 3; second++) {
            clock.advance(Duration.ofSeconds(1));
            for (int i = 0; i < 45; i++) {
                new CapacityMeter(a.throughput).admitWrite(table, new Usage.Write(0, 10 * 1024, List.of(), false, ONE_KEY));
                new CapacityMeter(b.throughput).admitWrite(table, new Usage.Write(0, 10 * 1024, List.of(), false, ONE_KEY));
            }
            a.exchange.exchange();
            b.exchange.exchange();
            a.exchange.exchange();
        }
        long[] split = a.throughput.partitionStarts(table, null);
        assertTrue(split.length > before.length, "the hot partition split (until its key is isolated)");
        assertArrayEquals(split, b.throughput.partitionStarts(table, null), "one partition model on both");
        assertArrayEquals(split, saved.get("od"), "and in storage");

        // A server started later, with the table's first partitions, makes the splits at its first
        // exchange once the others have published them (at their next exchange).
        a.exchange.exchange();
        b.exchange.exchange();
        Server d = new Server();
        d.exchange.exchange();
        assertArrayEquals(split, d.throughput.partitionStarts(table, null));
    }

    @Test
    void aServerThatStopsStopsCountingAndOneThatStartsCountsWhole() {
        TableDefinition table = table("t", "PROVISIONED", new TableSpecs.Throughput(5, 5));
        Server a = new Server(0);
        a.exchange.exchange();

        // Started after a's first reading: all it takes is new to a.
        Server c = new Server(0);
        assertEquals(75, c.writesAdmittedNow(table, 20), "the table's 1,500 units of burst");
        c.exchange.exchange();
        a.exchange.exchange();
        assertEquals(0, a.writesAdmittedNow(table, 10));
        assertEquals(2, rowOwners().size());

        // c stops (no more exchanges): its totals stand still, so nothing more is counted; its
        // heartbeat standing still (here for any time at all), its rows are deleted as gone.
        clock.advance(Duration.ofSeconds(10));
        a.exchange.exchange();
        assertEquals(1, rowOwners().size(), "gone: only a's rows are left");
        assertEquals(5, a.writesAdmittedNow(table, 10), "the table's 50 units of 10 seconds, nothing of c's again");
    }

    @Test
    void aServerClosedWithdrawsItsRows() {
        Server a = new Server();
        Server b = new Server();
        a.exchange.exchange();
        b.exchange.exchange();
        assertEquals(2, rowOwners().size());
        b.exchange.withdraw();
        assertEquals(1, rowOwners().size());
    }

    @Test
    void rowsRoundTrip() {
        Deployment.Consumption c = new Deployment.Consumption(7, 3, 1.5, 2.5, new long[] {0, Long.MIN_VALUE},
                new double[] {1, 0.5}, new double[] {2, 0.5});
        Deployment.Consumption d = SharedCapacity.decode(java.nio.ByteBuffer.allocate(12).putLong(7).putInt(3).array(),
                SharedCapacity.encode(c));
        assertEquals(c.tableId(), d.tableId());
        assertEquals(c.indexId(), d.indexId());
        assertEquals(c.write(), d.write());
        assertArrayEquals(c.partitionStarts(), d.partitionStarts());
        assertArrayEquals(c.partitionWrites(), d.partitionWrites());
        Deployment.Consumption later = new Deployment.Consumption(7, 3, 1.5, 4.5, new long[] {0, 1L << 62, Long.MIN_VALUE},
                new double[] {1, 0, 0.5}, new double[] {3, 1, 0.5});
        Deployment.Consumption units = SharedCapacity.difference(later, c);
        assertEquals(0, units.read());
        assertEquals(2, units.write());
        assertArrayEquals(new double[] {1, 1, 0}, units.partitionWrites(), "a new partition's units are all new");
        assertTrue(SharedCapacity.difference(c, c) == null, "nothing new");
    }

    /** The servers whose rows the store holds. */
    private Set<String> rowOwners() {
        Set<String> owners = new HashSet<>();
        List<byte[]> keys = new ArrayList<>();
        try (Cursor c = store.scan(SharedCapacity.TABLE, 0, 0, 0, null, CollectionStore.Consistency.STRONG)) {
            while (c.next()) keys.add(c.key());
        }
        for (byte[] k : keys) owners.add(java.util.HexFormat.of().formatHex(RowKeyFraming.partitionKey(k)));
        return owners;
    }
}

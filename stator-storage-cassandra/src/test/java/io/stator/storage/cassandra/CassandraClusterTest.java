package io.stator.storage.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import java.time.Duration;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The harness against a real cluster: replication factor 3, lightweight transactions, and the
 * loss of one node of three (kill -9) that QUORUM and SERIAL ride out, the node coming back.
 */
@ExtendWith(CassandraClusterExtension.class)
class CassandraClusterTest {

    private static final String KEYSPACE = "stator_smoke";
    private static final String TABLE = KEYSPACE + ".kv";

    @BeforeAll
    static void schema(CqlSession session) {
        session.execute(SimpleStatement.newInstance("CREATE KEYSPACE IF NOT EXISTS " + KEYSPACE
                        + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}")
                .setTimeout(Duration.ofSeconds(30)));
        session.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS " + TABLE
                + " (k text PRIMARY KEY, v int)").setTimeout(Duration.ofSeconds(30)));
        assertTrue(session.checkSchemaAgreement(), "schema agreement");
    }

    @Test
    void lightweightTransactionsAtSerialAndQuorum(CqlSession session) {
        String key = "lwt-" + System.nanoTime();
        assertTrue(insertIfNotExists(session, key, 1).wasApplied(), "first INSERT IF NOT EXISTS");
        ResultSet again = insertIfNotExists(session, key, 9);
        assertFalse(again.wasApplied(), "second INSERT IF NOT EXISTS");
        assertEquals(1, again.one().getInt("v"), "the row that was there");

        assertTrue(updateIf(session, key, 1, 2).wasApplied(), "UPDATE IF v = 1");
        ResultSet stale = updateIf(session, key, 1, 3);
        assertFalse(stale.wasApplied(), "UPDATE IF v = 1 once v is 2");
        assertEquals(2, stale.one().getInt("v"));

        assertEquals(2, read(session, key, DefaultConsistencyLevel.SERIAL));
        assertEquals(2, read(session, key, DefaultConsistencyLevel.QUORUM));
    }

    @Test
    void rideOutTheLossOfOneNodeAndTakeItBack(CassandraCluster cluster, CqlSession session) {
        assumeTrue(cluster.managed() && cluster.size() == 3, "needs the harness's own 3 nodes");
        String key = "down-" + System.nanoTime();
        int victim = 2;
        long began = System.nanoTime();
        cluster.killNode(victim);
        try {
            assertFalse(cluster.isRunning(victim));
            for (int i = 0; i < 20; i++) {
                write(session, key + "-" + i, i, DefaultConsistencyLevel.QUORUM);
            }
            for (int i = 0; i < 20; i++) {
                assertEquals(i, read(session, key + "-" + i, DefaultConsistencyLevel.QUORUM));
            }
            applied(session, key, 1, () -> insertIfNotExists(session, key, 1), "INSERT IF NOT EXISTS with a node down");
            applied(session, key, 2, () -> updateIf(session, key, 1, 2), "UPDATE IF with a node down");
            assertEquals(2, read(session, key, DefaultConsistencyLevel.SERIAL));
        } finally {
            long restarting = System.nanoTime();
            cluster.startNode(victim);
            System.out.printf("node %d restarted and seen up in %.1f s%n", victim, (System.nanoTime() - restarting) / 1e9);
        }
        assertTrue(cluster.isRunning(victim));
        var node = session.getMetadata().getNodes().values().stream()
                .filter(n -> cluster.nativeAddress(victim).equals(n.getEndPoint().resolve()))
                .findFirst().orElse(null);
        assertNotNull(node);
        assertEquals(NodeState.UP, node.getState());
        // CL ALL needs every replica, the restarted one among them.
        write(session, key + "-all", 7, DefaultConsistencyLevel.ALL);
        assertEquals(7, read(session, key + "-all", DefaultConsistencyLevel.ALL));
        assertEquals(2, read(session, key, DefaultConsistencyLevel.ALL));
        System.out.printf("kill, requests, restart: %.1f s%n", (System.nanoTime() - began) / 1e9);
    }

    /**
     * A lightweight transaction with a node down must be applied. Its Paxos round may time out on
     * a loaded machine (WriteTimeoutException at SERIAL): its outcome is then unknown, so it is
     * asked again, and an attempt that finds the value it meant to write already there (an
     * earlier attempt's, on a key no one else writes) counts as applied.
     */
    private static void applied(CqlSession session, String key, int intended, Supplier<ResultSet> cas, String what) {
        for (int attempt = 1; ; attempt++) {
            try {
                if (cas.get().wasApplied()) return;
                assertTrue(attempt > 1, what + ": not applied");
                assertEquals(intended, read(session, key, DefaultConsistencyLevel.SERIAL), what + ": not applied");
                return;
            } catch (WriteTimeoutException | ReadTimeoutException e) {
                if (attempt == 5) throw e;
                System.out.println(what + ": " + e.getMessage() + "; asked again");
            }
        }
    }

    private static ResultSet insertIfNotExists(CqlSession session, String key, int v) {
        return session.execute(SimpleStatement.newInstance("INSERT INTO " + TABLE + " (k, v) VALUES (?, ?) IF NOT EXISTS", key, v)
                .setConsistencyLevel(DefaultConsistencyLevel.QUORUM)
                .setSerialConsistencyLevel(DefaultConsistencyLevel.SERIAL));
    }

    private static ResultSet updateIf(CqlSession session, String key, int expected, int v) {
        return session.execute(SimpleStatement.newInstance("UPDATE " + TABLE + " SET v = ? WHERE k = ? IF v = ?", v, key, expected)
                .setConsistencyLevel(DefaultConsistencyLevel.QUORUM)
                .setSerialConsistencyLevel(DefaultConsistencyLevel.SERIAL));
    }

    private static void write(CqlSession session, String key, int v, ConsistencyLevel consistency) {
        session.execute(SimpleStatement.newInstance("INSERT INTO " + TABLE + " (k, v) VALUES (?, ?)", key, v)
                .setConsistencyLevel(consistency));
    }

    private static int read(CqlSession session, String key, ConsistencyLevel consistency) {
        Row row = session.execute(SimpleStatement.newInstance("SELECT v FROM " + TABLE + " WHERE k = ?", key)
                .setConsistencyLevel(consistency)).one();
        assertNotNull(row, key);
        return row.getInt(0);
    }
}

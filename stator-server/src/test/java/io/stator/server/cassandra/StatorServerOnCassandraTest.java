package io.stator.server.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import io.stator.engine.cluster.Deployment;
import io.stator.engine.cluster.SharedCluster;
import io.stator.server.CassandraOptions;
import io.stator.server.ServerOptions;
import io.stator.server.StatorServer;
import io.stator.server.StorageBackends;
import io.stator.server.testing.StatorTestServer;
import io.stator.storage.Storage;
import io.stator.storage.cassandra.CassandraCluster;
import io.stator.storage.cassandra.CassandraClusterExtension;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A server on Apache Cassandra ({@code --storage cassandra}) against a real cluster
 * (CassandraClusterExtension, shared with every test of the on-cassandra execution): the wiring
 * from the options to the storage, and two servers serving one keyspace.
 */
@ExtendWith(CassandraClusterExtension.class)
class StatorServerOnCassandraTest {

    @Test
    void openingTheStorageCreatesTheKeyspaceWithTheReplicationAsked(CassandraCluster cluster, CqlSession session)
            throws Exception {
        String keyspace = keyspace();
        assertNull(replication(session, keyspace));

        Storage storage = StorageBackends.open(options(cluster, keyspace, 1));
        try {
            assertInstanceOf(SharedCluster.class, Deployment.of(storage));
            assertEquals(Map.of("class", "org.apache.cassandra.locator.SimpleStrategy", "replication_factor", "1"),
                    replication(session, keyspace));
        } finally {
            storage.close();
            session.execute("DROP KEYSPACE IF EXISTS " + keyspace);
        }
    }

    @Test
    void aDatacenterTheClusterDoesNotHaveIsRefusedBeforeAnythingIsCreated(CassandraCluster cluster, CqlSession session) {
        String keyspace = keyspace();
        ServerOptions options = options(cluster, keyspace, 1);
        ServerOptions elsewhere = options.withCassandra(new CassandraOptions(options.cassandra().contactPoints(),
                "nowhere", keyspace, 1));

        IOException e = assertThrows(IOException.class, () -> StorageBackends.open(elsewhere));

        assertTrue(e.getMessage().contains("has no node in datacenter 'nowhere' (--cassandra-datacenter); its "
                + "datacenters: " + cluster.localDatacenter()), e.getMessage());
        assertNull(replication(session, keyspace));
    }

    @Test
    void twoServersOnOneKeyspaceServeTheSameTables(CassandraCluster cluster, CqlSession session) throws Exception {
        String keyspace = keyspace();
        ServerOptions options = options(cluster, keyspace, 1).withPort(0);
        String table = StatorTestServer.tableName();
        Map<String, AttributeValue> item = Map.of("id", AttributeValue.fromS("shared"), "n", AttributeValue.fromN("1"));
        try (StatorServer first = StatorServer.start(options);
             StatorServer second = StatorServer.start(options);
             DynamoDbClient one = client(first);
             DynamoDbClient other = client(second)) {
            StatorTestServer.createTable(one, table);
            one.putItem(b -> b.tableName(table).item(item));

            assertTrue(other.listTables().tableNames().contains(table));
            assertEquals(item, other.getItem(b -> b.tableName(table).key(Map.of("id", item.get("id")))
                    .consistentRead(true)).item());
        } finally {
            session.execute("DROP KEYSPACE IF EXISTS " + keyspace);
        }
    }

    /** The options of a server on this cluster; its data directory is never used. */
    private static ServerOptions options(CassandraCluster cluster, String keyspace, int replication) {
        return ServerOptions.defaults(Path.of("unused-on-cassandra")).withCassandra(
                CassandraOptions.of(cluster.contactPoints()).withKeyspace(keyspace, replication));
    }

    private static String keyspace() {
        return "stator_test_" + Long.toUnsignedString(ThreadLocalRandom.current().nextLong(), 36);
    }

    /** The keyspace's replication settings, or null when it does not exist. */
    private static Map<String, String> replication(CqlSession session, String keyspace) {
        Row row = session.execute("SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?", keyspace)
                .one();
        return row == null ? null : row.getMap("replication", String.class, String.class);
    }

    private static DynamoDbClient client(StatorServer server) {
        return StatorTestServer.newClient(URI.create(server.endpoint()), "us-east-1", StatorTestServer.ACCESS_KEY,
                StatorTestServer.SECRET_KEY);
    }
}

package io.stator.server;

import io.stator.engine.cluster.Deployment;
import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Node;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.Storage;
import io.stator.storage.cassandra.CassandraCollectionStore;
import io.stator.storage.cassandra.CassandraSessions;
import io.stator.storage.rocksdb.RocksStorage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The storage a server runs on: RocksDB in its data directory (or in memory), by default; or an
 * Apache Cassandra cluster that several servers share ({@code --storage cassandra}), through the
 * engine's shared storage ({@link Deployment#sharedStorage}) on a {@link CassandraCollectionStore}. The one class of the
 * server that knows the backends (ArchitectureTest).
 */
public final class StorageBackends {

    private StorageBackends() {}

    /** What every start on this machine's own storage needs, whatever its options: RocksDB's library. */
    static void preload() {
        RocksStorage.loadNativeLibrary();
    }

    public static Storage open(ServerOptions options) throws IOException {
        return options.cassandra() == null ? openRocksDb(options) : openCassandra(options);
    }

    private static Storage openRocksDb(ServerOptions options) {
        return RocksStorage.builder(options.dataDirectory(), Keyspaces.ALL)
                .inMemory(options.inMemory())
                .fsync(options.fsync())
                .memoryBytes(options.memory().storageBytes())
                .open();
    }

    /**
     * A session to the cluster (CassandraSessions: protocol v4, its timeouts), the keyspace
     * created when it does not exist yet, and the storage on it, which closes the session when
     * it closes. A cluster that cannot be reached, or has no node in the local datacenter, is an
     * IOException saying so.
     */
    static Storage openCassandra(ServerOptions options) throws IOException {
        CassandraOptions cassandra = options.cassandra();
        CqlSession session;
        try {
            session = CassandraSessions.open(cassandra.contactPoints(), cassandra.localDatacenter());
        } catch (AllNodesFailedException e) {
            throw new IOException("cannot reach the Cassandra cluster at " + addresses(cassandra.contactPoints())
                    + " (--cassandra): " + reasons(cassandra.contactPoints(), e), e);
        } catch (IllegalArgumentException e) {
            throw new IOException("--cassandra: " + e.getMessage(), e);
        }
        try {
            TreeSet<String> datacenters = session.getMetadata().getNodes().values().stream()
                    .map(Node::getDatacenter).filter(dc -> dc != null)
                    .collect(Collectors.toCollection(TreeSet::new));
            if (!datacenters.contains(cassandra.localDatacenter())) {
                throw new IOException("the Cassandra cluster at " + addresses(cassandra.contactPoints())
                        + " has no node in datacenter '" + cassandra.localDatacenter() + "' (--cassandra-datacenter);"
                        + " its datacenters: " + String.join(", ", datacenters));
            }
            CassandraCollectionStore.createKeyspace(session, cassandra.keyspace(), cassandra.replication());
            // The wall clock, not the server's (a test's clock may be moved): when a transaction
            // left undecided counts as abandoned is about real servers dying.
            return Deployment.sharedStorage(new CassandraCollectionStore(session, cassandra.keyspace()), Clock.systemUTC(),
                    session);
        } catch (IOException | RuntimeException | Error e) {
            session.close();
            throw e;
        }
    }

    private static String addresses(List<InetSocketAddress> contactPoints) {
        return contactPoints.stream().map(a -> a.getHostString() + ":" + a.getPort()).collect(Collectors.joining(","));
    }

    /**
     * Why each contact point failed, in a few words. The driver says only that its first request
     * could not be sent, whatever the reason, so a plain connection tells a refused or unanswered
     * one from a node that took the connection and then failed the driver (whose message it gives).
     */
    private static String reasons(List<InetSocketAddress> contactPoints, AllNodesFailedException e) {
        List<String> reasons = new ArrayList<>();
        for (InetSocketAddress point : CassandraSessions.resolve(contactPoints)) {
            String address = point.getHostString() + ":" + point.getPort();
            try (Socket socket = new Socket()) {
                socket.connect(point, 2_000);
                String driver = e.getAllErrors().entrySet().stream()
                        .filter(entry -> point.equals(entry.getKey().getEndPoint().resolve()))
                        .flatMap(entry -> entry.getValue().stream())
                        .map(Throwable::getMessage).findFirst().orElse("no CQL answer");
                reasons.add(address + ": " + driver);
            } catch (SocketTimeoutException timeout) {
                reasons.add(address + ": no answer within 2 s");
            } catch (IOException refused) {
                reasons.add(address + ": " + refused.getMessage());
            }
        }
        return String.join(", ", reasons);
    }
}

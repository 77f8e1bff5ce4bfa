package io.stator.server.testing;

import io.stator.server.CassandraOptions;
import io.stator.server.ServerOptions;
import io.stator.storage.cassandra.CassandraCluster;
import org.junit.jupiter.api.Assumptions;

/**
 * The storage the test servers run on: RocksDB, or, with the system property
 * {@value #PROPERTY}{@code =cassandra} (the build's {@code on-cassandra} execution), the JVM's
 * shared three-node Cassandra cluster at replication factor 3, every test server on one keyspace
 * (as the servers of one deployment share theirs; the tests' tables have names of their own), so
 * that the keyspace's own tables are made once. The same SDK tests thus run on both backends; a test of what shared storage does not keep yet (see
 * docs/storage-contract.md) assumes it with {@link #assumeLocalOnly}.
 */
public final class TestBackend {

    public static final String PROPERTY = "stator.test.storage";
    private static final String KEYSPACE = "stator_tests_" + ProcessHandle.current().pid();

    private TestBackend() {}

    /** True when the test servers run on Cassandra. */
    public static boolean cassandra() {
        return "cassandra".equals(System.getProperty(PROPERTY));
    }

    /** The options on the backend under test: unchanged for RocksDB, the tests' keyspace on Cassandra. */
    public static ServerOptions on(ServerOptions options) {
        if (!cassandra()) return options;
        return options.withCassandra(CassandraOptions.of(CassandraCluster.shared().contactPoints()).withKeyspace(KEYSPACE, 3));
    }

    /**
     * Skips the test on shared storage, which does not keep {@code what} yet (global secondary
     * indexes, Streams, Time to Live, table counters: refused or 0 there, as the README lists).
     */
    public static void assumeLocalOnly(String what) {
        Assumptions.assumeFalse(cassandra(), what + " is not kept on shared storage yet");
    }
}

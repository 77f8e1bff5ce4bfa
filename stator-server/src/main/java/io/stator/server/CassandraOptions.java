package io.stator.server;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * Where a server keeps its data when it shares an Apache Cassandra cluster with other servers
 * ({@code --storage cassandra}); docs/cassandra.md.
 *
 * @param contactPoints   some of the cluster's nodes (--cassandra), resolved when the session opens
 * @param localDatacenter the datacenter whose nodes the server sends its requests to (--cassandra-datacenter)
 * @param keyspace        the keyspace of the deployment's data, shared by its servers (--keyspace)
 * @param replication     the keyspace's replication factor (SimpleStrategy) if this server creates
 *                        it (--replication); an existing keyspace keeps its own
 */
public record CassandraOptions(List<InetSocketAddress> contactPoints, String localDatacenter, String keyspace,
                               int replication) {

    public static final String DEFAULT_DATACENTER = "datacenter1";
    public static final String DEFAULT_KEYSPACE = "stator";
    public static final int DEFAULT_REPLICATION = 3;

    public CassandraOptions {
        contactPoints = List.copyOf(contactPoints);
        if (contactPoints.isEmpty()) throw new IllegalArgumentException("no contact point");
    }

    /** The cluster of these contact points, with the default datacenter, keyspace and replication. */
    public static CassandraOptions of(List<InetSocketAddress> contactPoints) {
        return new CassandraOptions(contactPoints, DEFAULT_DATACENTER, DEFAULT_KEYSPACE, DEFAULT_REPLICATION);
    }

    public CassandraOptions withKeyspace(String keyspace, int replication) {
        return new CassandraOptions(contactPoints, localDatacenter, keyspace, replication);
    }
}

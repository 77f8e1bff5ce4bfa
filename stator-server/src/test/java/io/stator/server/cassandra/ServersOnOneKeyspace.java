package io.stator.server.cassandra;

import io.stator.server.CassandraOptions;
import io.stator.server.ServerOptions;
import io.stator.server.StatorServer;
import io.stator.server.testing.StatorProcess;
import io.stator.server.testing.StatorTestServer;
import io.stator.storage.cassandra.CassandraCluster;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A fresh keyspace of the test cluster, and the servers, clients and processes one test opens on
 * it, closed in reverse order when the test ends: what every test of several servers on one
 * keyspace needs.
 */
final class ServersOnOneKeyspace implements AutoCloseable {

    private final CassandraCluster cluster;
    private final String keyspace;
    private final List<AutoCloseable> opened = new ArrayList<>();

    /** @param prefix the keyspace's name before a random suffix (which test made it, in the cluster) */
    ServersOnOneKeyspace(CassandraCluster cluster, String prefix) {
        this.cluster = cluster;
        this.keyspace = prefix + Long.toUnsignedString(new Random().nextLong(), 36);
    }

    CassandraCluster cluster() {
        return cluster;
    }

    /** The keyspace's name, for a test that reads its tables with CQL. */
    String keyspace() {
        return keyspace;
    }

    /** A server in this JVM on the keyspace (replication factor 3, a free port, throughput reported only). */
    ServerOptions options() {
        return ServerOptions.defaults(Path.of("unused-on-cassandra")).withPort(0)
                .withThroughput(StatorTestServer.REPORT_ONLY)
                .withCassandra(CassandraOptions.of(cluster.contactPoints()).withKeyspace(keyspace, 3));
    }

    /** Starts a server in this JVM, closed when the test ends. */
    StatorServer start(ServerOptions options) throws Exception {
        return closedAfter(StatorServer.start(options));
    }

    /** An SDK client of the server, closed when the test ends. */
    DynamoDbClient client(StatorServer server) {
        return closedAfter(StatorTestServer.newClient(URI.create(server.endpoint()), "us-east-1",
                StatorTestServer.ACCESS_KEY, StatorTestServer.SECRET_KEY));
    }

    /** Starts a server in this JVM and returns its client. */
    DynamoDbClient serve(ServerOptions options) throws Exception {
        return client(start(options));
    }

    /** Starts {@code bin/stator} on the keyspace as a process of its own (one a test can kill). */
    StatorProcess process(Path stderr, List<String> jvmOptions) throws Exception {
        return process(stderr, jvmOptions, List.of());
    }

    /** As {@link #process(Path, List)}, with {@code statorOptions} (such as {@code --s3-dir DIR}) added. */
    StatorProcess process(Path stderr, List<String> jvmOptions, List<String> statorOptions) throws Exception {
        String contactPoints = cluster.contactPoints().stream()
                .map(a -> a.getHostString() + ":" + a.getPort()).collect(Collectors.joining(","));
        List<String> options = new ArrayList<>(List.of("--storage", "cassandra", "--cassandra", contactPoints,
                "--keyspace", keyspace, "--replication", "3"));
        options.addAll(statorOptions);
        return closedAfter(StatorProcess.start(null, stderr, jvmOptions, options));
    }

    <T extends AutoCloseable> T closedAfter(T resource) {
        opened.add(resource);
        return resource;
    }

    @Override
    public void close() throws Exception {
        for (int i = opened.size() - 1; i >= 0; i--) opened.get(i).close();
    }
}

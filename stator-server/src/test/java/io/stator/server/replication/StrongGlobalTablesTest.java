package io.stator.server.replication;

import static io.stator.server.replication.StrongGlobalTables.A;
import static io.stator.server.replication.StrongGlobalTables.B;
import static io.stator.server.replication.StrongGlobalTables.C;
import static io.stator.server.replication.StrongGlobalTables.CREATION;
import static io.stator.server.replication.StrongGlobalTables.assertReadStrongly;
import static io.stator.server.replication.StrongGlobalTables.create;
import static io.stator.server.replication.StrongGlobalTables.delete;
import static io.stator.server.replication.StrongGlobalTables.replicaRegions;
import static io.stator.server.replication.StrongGlobalTables.witness;
import static io.stator.server.replication.StrongGlobalTables.witnesses;
import static io.stator.server.testing.GlobalTableRegions.ARRIVAL;
import static io.stator.server.testing.GlobalTableRegions.item;
import static io.stator.server.testing.GlobalTableRegions.key;
import static io.stator.server.testing.GlobalTableRegions.replica;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.ErrorAssertions;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.GlobalTableRegions;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.StreamReading;
import io.stator.server.testing.TestCertificates;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DeleteGlobalTableWitnessGroupMemberAction;
import software.amazon.awssdk.services.dynamodb.model.Get;
import software.amazon.awssdk.services.dynamodb.model.GlobalTableWitnessGroupUpdate;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.MultiRegionConsistency;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.ReplicationGroupUpdate;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Global tables with multi-Region strong consistency (MRSC), through the SDK against three Stator
 * processes, one per region: creation with three replicas or with two and a witness, DynamoDB's
 * refusals (texts observed on AWS where known, docs/dynamodb/global-tables.md section 5; the type
 * alone where AWS's text is unknown), writes read strongly at once in every region, conditions
 * evaluated against the latest committed value, and streams identical in every region.
 * Concurrent writers: {@link StrongGlobalTableConflictsTest}; regions paused and killed:
 * {@link StrongGlobalTableOutagesTest}.
 */
@Tag("mrsc")
class StrongGlobalTablesTest {

    private static GlobalTableRegions regions;

    @BeforeAll
    static void start() throws Exception {
        regions = StrongGlobalTables.start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (regions != null) regions.close();
    }

    private static DynamoDbClient a() { return regions.client(A); }

    private static String newTable() {
        String table = StatorTestServer.tableName();
        StatorTestServer.createTable(a(), table);
        return table;
    }

    @Test
    void threeReplicasTurnStrongInOneUpdateTable() {
        String table = newTable();
        TableDescription updating = a().updateTable(r -> r.tableName(table)
                .multiRegionConsistency(MultiRegionConsistency.STRONG).replicaUpdates(create(B), create(C))).tableDescription();
        assertEquals("UPDATING", updating.tableStatusAsString());
        assertEquals(MultiRegionConsistency.STRONG, updating.multiRegionConsistency());
        assertEquals("2019.11.21", updating.globalTableVersion());

        StrongGlobalTables.awaitActive(regions, table, List.of(A, B, C), null);
        for (String region : List.of(A, B, C)) {
            TableDescription t = regions.describe(region, table);
            assertEquals(MultiRegionConsistency.STRONG, t.multiRegionConsistency(), region);
            assertEquals("2019.11.21", t.globalTableVersion(), region);
            // Replicas lists the other regions, never the region's own (as for MREC).
            Set<String> others = new java.util.TreeSet<>(List.of(A, B, C));
            others.remove(region);
            assertEquals(others, replicaRegions(t), region);
            for (String other : others) assertEquals("ACTIVE", replica(t, other).replicaStatusAsString(), region);
            assertFalse(t.hasGlobalTableWitnesses() && !t.globalTableWitnesses().isEmpty(), region + ": no witness");
            // MRSC does not replicate through a stream, so none is turned on (reference section 3).
            assertTrue(t.streamSpecification() == null || !t.streamSpecification().streamEnabled(), region);
        }
    }

    @Test
    void twoReplicasAndAWitnessTurnStrongAndTheWitnessRegionHasNoTable() {
        String table = newTable();
        TableDescription updating = a().updateTable(r -> r.tableName(table)
                .multiRegionConsistency(MultiRegionConsistency.STRONG).replicaUpdates(create(B))
                .globalTableWitnessUpdates(witness(C))).tableDescription();
        assertEquals("UPDATING", updating.tableStatusAsString());
        assertEquals(MultiRegionConsistency.STRONG, updating.multiRegionConsistency());
        assertEquals("2019.11.21", updating.globalTableVersion());

        StrongGlobalTables.awaitActive(regions, table, List.of(A, B), C);
        for (String region : List.of(A, B)) {
            TableDescription t = regions.describe(region, table);
            assertEquals(MultiRegionConsistency.STRONG, t.multiRegionConsistency(), region);
            assertEquals("2019.11.21", t.globalTableVersion(), region);
            assertEquals(Set.of(region.equals(A) ? B : A), replicaRegions(t), region);
            assertEquals(Map.of(C, "ACTIVE"), witnesses(t), region);
        }

        // The witness votes and keeps the log, but C has no table to call.
        ErrorAssertions.assertError("ResourceNotFoundException", "Requested resource not found: Table: " + table
                + " not found", () -> regions.client(C).describeTable(r -> r.tableName(table)));
        ErrorAssertions.assertError("ResourceNotFoundException", "Requested resource not found",
                () -> regions.client(C).getItem(r -> r.tableName(table).key(key("w"))));
        ErrorAssertions.assertError("ResourceNotFoundException", "Requested resource not found",
                () -> regions.client(C).putItem(r -> r.tableName(table).item(item("w", "in C"))));

        a().putItem(r -> r.tableName(table).item(item("w", "from A")));
        assertReadStrongly(regions, table, List.of(A, B), key("w"), "from A");
        regions.client(B).putItem(r -> r.tableName(table).item(item("w", "from B")));
        assertReadStrongly(regions, table, List.of(A, B), key("w"), "from B");
    }

    @Test
    void refusalsWhenMakingATableStrongInDynamoDbsWords() {
        String table = newTable();
        ErrorAssertions.assertValidation("Unsupported replica count for global tables with MultiRegionConsistency "
                + "set to STRONG.", () -> update(table, MultiRegionConsistency.STRONG, List.of(create(B)), List.of()));
        ErrorAssertions.assertValidation("MultiRegionConsistency must be set as STRONG when GlobalTableWitnessUpdates "
                + "parameter is present.", () -> update(table, null, List.of(create(B)), List.of(witness(C))));
        ErrorAssertions.assertValidation("MultiRegionConsistency must be set as STRONG when GlobalTableWitnessUpdates "
                + "parameter is present.", () -> update(table, MultiRegionConsistency.EVENTUAL, List.of(create(B)),
                        List.of(witness(C))));
        ErrorAssertions.assertValidation("Cannot target multiple regions with the same action",
                () -> update(table, MultiRegionConsistency.STRONG, List.of(create(B)), List.of(witness(B))));
        ErrorAssertions.assertValidation("Cannot add a witness in the same region as an existing replica when creating "
                + "a global table with MultiRegionConsistency set to STRONG.",
                () -> update(table, MultiRegionConsistency.STRONG, List.of(create(B)), List.of(witness(A))));
        // The model's length constraint; how the list is echoed in Value '...' may differ from AWS's.
        ErrorAssertions.assertErrorMatches("ValidationException", "(?s)1 validation error detected: Value '.*' at "
                + "'globalTableWitnessUpdates' failed to satisfy constraint: Member must have length less than or "
                + "equal to 1", () -> update(table, MultiRegionConsistency.STRONG, List.of(create(B)),
                        List.of(witness(C), witness(A))));
        assertStillRegional(table);

        // The table must be empty: AWS's text is unknown, Stator's says so.
        String withItems = newTable();
        a().putItem(r -> r.tableName(withItems).item(item("x", "1")));
        AwsServiceException notEmpty = assertValidationType(() -> update(withItems, MultiRegionConsistency.STRONG,
                List.of(create(B), create(C)), List.of()));
        assertTrue(notEmpty.awsErrorDetails().errorMessage().contains("empty"), notEmpty.awsErrorDetails().errorMessage());
        assertStillRegional(withItems);
        assertEquals("1", regions.get(A, withItems, key("x")).get("v").s());

        // MRSC does not support local secondary indexes (AWS's text unknown).
        String withIndex = StatorTestServer.tableName();
        a().createTable(r -> r.tableName(withIndex).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(def("id"), def("s"), def("l"))
                .keySchema(element("id", KeyType.HASH), element("s", KeyType.RANGE))
                .localSecondaryIndexes(LocalSecondaryIndex.builder().indexName("byL")
                        .keySchema(element("id", KeyType.HASH), element("l", KeyType.RANGE))
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build()).build()));
        assertValidationType(() -> update(withIndex, MultiRegionConsistency.STRONG, List.of(create(B), create(C)),
                List.of()));
        assertStillRegional(withIndex);
    }

    @Test
    void anActiveStrongTableRefusesReplicaChangesTransactionsAndTimeToLive() {
        String table = StrongGlobalTables.twoReplicasAndAWitness(regions);
        ErrorAssertions.assertValidation("Cannot add replicas to a global table with strong MultiRegionConsistency",
                () -> update(table, null, List.of(create(C)), List.of()));
        ErrorAssertions.assertValidation("MultiRegionConsistency parameter is unsupported on existing global table",
                () -> update(table, MultiRegionConsistency.EVENTUAL, List.of(create(C)), List.of()));
        ErrorAssertions.assertValidation("Only Replica Create actions are supported when MultiRegionConsistency "
                + "parameter is provided.", () -> update(table, MultiRegionConsistency.STRONG, List.of(delete(B)), List.of()));
        ErrorAssertions.assertValidation("Update table delete operation does not include all witnesses.",
                () -> update(table, null, List.of(delete(B)), List.of()));
        for (String region : List.of(A, B)) {
            ErrorAssertions.assertValidation("Deletion of only one table replica is not supported for global tables with "
                    + "MultiRegionConsistency set to STRONG.",
                    () -> regions.client(region).deleteTable(r -> r.tableName(table)));
        }

        // Transactions and Time to Live are not supported on MRSC (AWS's texts unknown).
        assertValidationType(() -> a().transactWriteItems(r -> r.transactItems(TransactWriteItem.builder()
                .put(Put.builder().tableName(table).item(item("t", "in a transaction")).build()).build())));
        assertValidationType(() -> regions.client(B).transactGetItems(r -> r.transactItems(TransactGetItem.builder()
                .get(Get.builder().tableName(table).key(key("t")).build()).build())));
        assertValidationType(() -> a().updateTimeToLive(r -> r.tableName(table)
                .timeToLiveSpecification(s -> s.enabled(true).attributeName("exp"))));

        // Nothing changed: both replicas ACTIVE and STRONG with their witness, no item, no Time to Live.
        StrongGlobalTables.awaitActive(regions, table, List.of(A, B), C);
        for (String region : List.of(A, B)) {
            TableDescription t = regions.describe(region, table);
            assertEquals("ACTIVE", t.tableStatusAsString(), region);
            assertEquals(MultiRegionConsistency.STRONG, t.multiRegionConsistency(), region);
            assertEquals(Set.of(region.equals(A) ? B : A), replicaRegions(t), region);
            assertEquals(Map.of(C, "ACTIVE"), witnesses(t), region);
            assertEquals("DISABLED", regions.client(region).describeTimeToLive(r -> r.tableName(table))
                    .timeToLiveDescription().timeToLiveStatusAsString(), region);
        }
        assertNull(regions.describe(C, table));
        assertReadStrongly(regions, table, List.of(A, B), key("t"), null);
        a().putItem(r -> r.tableName(table).item(item("t", "still written")));
        assertReadStrongly(regions, table, List.of(A, B), key("t"), "still written");
    }

    @Test
    void deletingTheReplicaAndTheWitnessTogetherLeavesARegionalTable() {
        String table = StrongGlobalTables.twoReplicasAndAWitness(regions);
        a().putItem(r -> r.tableName(table).item(item("kept", "1")));
        // "The deletion of both a witness and replica converts the remaining replica to a single-Region table" (MODEL).
        a().updateTable(r -> r.tableName(table).replicaUpdates(delete(B)).globalTableWitnessUpdates(
                GlobalTableWitnessGroupUpdate.builder().delete(DeleteGlobalTableWitnessGroupMemberAction.builder()
                        .regionName(C).build()).build()));
        TableDescription regional = Eventually.until("a regional table in " + A, CREATION, () -> regions.describe(A, table),
                t -> t.tableStatusAsString().equals("ACTIVE") && !t.hasReplicas() && witnesses(t).isEmpty());
        assertNull(regional.globalTableVersion());
        assertNull(regional.multiRegionConsistency());
        Eventually.until("the replica in " + B + " deleted", CREATION, () -> regions.describe(B, table), t -> t == null);
        assertEquals("1", regions.get(A, table, key("kept")).get("v").s());
        a().putItem(r -> r.tableName(table).item(item("after", "1")));
        assertEquals("1", regions.get(A, table, key("after")).get("v").s());
        // The witness region never had a table: one of that name may be created there, on its own.
        StatorTestServer.createTable(regions.client(C), table);
        assertNull(regions.get(C, table, key("kept")));
    }

    @Test
    void aWriteInAnyRegionIsReadStronglyInEveryRegionAtOnce() {
        String table = StrongGlobalTables.threeReplicas(regions);
        List<String> all = List.of(A, B, C);
        for (String writer : all) {
            String id = "from-" + writer;
            regions.client(writer).putItem(r -> r.tableName(table).item(item(id, "put in " + writer)));
            // No waiting: the write was acknowledged, so a strongly consistent read anywhere has it.
            assertReadStrongly(regions, table, all, key(id), "put in " + writer);
        }
        regions.client(B).updateItem(r -> r.tableName(table).key(key("from-" + A)).updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", AttributeValue.fromS("updated in " + B))));
        assertReadStrongly(regions, table, all, key("from-" + A), "updated in " + B);
        regions.client(C).deleteItem(r -> r.tableName(table).key(key("from-" + B)));
        assertReadStrongly(regions, table, all, key("from-" + B), null);

        // Strongly consistent Query and Scan too.
        for (String reader : all) {
            assertEquals(1, regions.client(reader).query(r -> r.tableName(table).consistentRead(true)
                    .keyConditionExpression("id = :id")
                    .expressionAttributeValues(Map.of(":id", AttributeValue.fromS("from-" + C)))).count(), reader);
            assertEquals(Set.of("from-" + A, "from-" + C), StrongGlobalTables.idsReadStrongly(regions, reader, table),
                    reader);
        }
        // Eventually consistent reads are local and may lag, but they catch up.
        for (String reader : all) {
            Eventually.until(reader + "'s local copy", ARRIVAL, () -> StrongGlobalTables.idsReadLocally(regions, reader,
                    table), ids -> ids.equals(Set.of("from-" + A, "from-" + C)));
        }
    }

    @Test
    void conditionsAndUpdatesEvaluateAgainstTheLatestCommittedValue() {
        String table = StrongGlobalTables.threeReplicas(regions);
        a().putItem(r -> r.tableName(table).item(item("c", "1")));
        // At once in B: its condition sees A's write, and its old image is A's item.
        Map<String, AttributeValue> old = regions.client(B).putItem(r -> r.tableName(table).item(item("c", "2"))
                .conditionExpression("v = :one").expressionAttributeValues(Map.of(":one", AttributeValue.fromS("1")))
                .returnValues(ReturnValue.ALL_OLD)).attributes();
        assertEquals(item("c", "1"), old);
        // In C, the same condition no longer holds: the latest value is B's.
        ConditionalCheckFailedException failed = assertThrows(ConditionalCheckFailedException.class,
                () -> regions.client(C).putItem(r -> r.tableName(table).item(item("c", "3")).conditionExpression("v = :one")
                        .expressionAttributeValues(Map.of(":one", AttributeValue.fromS("1")))));
        assertEquals(400, failed.statusCode());
        assertThrows(ConditionalCheckFailedException.class, () -> regions.client(C).putItem(r -> r.tableName(table)
                .item(item("c", "3")).conditionExpression("attribute_not_exists(id)")));
        assertReadStrongly(regions, table, List.of(A, B, C), key("c"), "2");

        // A counter incremented in turn in every region counts every increment.
        for (int i = 0; i < 9; i++) {
            String region = List.of(A, B, C).get(i % 3);
            regions.client(region).updateItem(r -> r.tableName(table).key(key("n")).updateExpression("ADD n :one")
                    .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))));
        }
        for (String region : List.of(A, B, C)) {
            assertEquals("9", regions.get(region, table, key("n")).get("n").n(), region);
        }
    }

    @Test
    void streamRecordsAreTheSameInEveryRegionInTheSameOrder() {
        String table = StrongGlobalTables.threeReplicas(regions);
        a().updateTable(r -> r.tableName(table).streamSpecification(s -> s.streamEnabled(true)
                .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
        for (String region : List.of(A, B, C)) {
            Eventually.until("the stream on in " + region, CREATION, () -> regions.describe(region, table),
                    t -> t.tableStatusAsString().equals("ACTIVE") && t.latestStreamArn() != null
                            && t.streamSpecification() != null && t.streamSpecification().streamEnabled());
        }

        // Writes from every region in turn: six inserts, twelve modifications, six removals.
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            String region = List.of(A, B, C).get(i % 3);
            String id = "k" + (i % 6);
            String v = "v" + i;
            DynamoDbClient client = regions.client(region);
            if (i < 6) {
                client.putItem(r -> r.tableName(table).item(item(id, v)));
                expected.add("INSERT " + id + " null>" + v);
            } else if (i < 12) {
                client.updateItem(r -> r.tableName(table).key(key(id)).updateExpression("SET v = :v")
                        .expressionAttributeValues(Map.of(":v", AttributeValue.fromS(v))));
                expected.add("MODIFY " + id + " v" + (i - 6) + ">" + v);
            } else if (i < 18) {
                client.putItem(r -> r.tableName(table).item(item(id, v)));
                expected.add("MODIFY " + id + " v" + (i - 6) + ">" + v);
            } else {
                client.deleteItem(r -> r.tableName(table).key(key(id)));
                expected.add("REMOVE " + id + " v" + (i - 6) + ">null");
            }
        }

        List<String> inA = null;
        for (String region : List.of(A, B, C)) {
            // Shard after shard (the table's partitions' shards), each in its records' order.
            List<Record> inShards = Eventually.until("24 records in " + region + "'s stream", ARRIVAL,
                    () -> streamRecords(region, table), l -> l.size() >= 24);
            // Across shards, the sequence numbers give the writes' order: the log's.
            List<Record> records = inShards.stream()
                    .sorted(Comparator.comparing(rec -> new BigInteger(rec.dynamodb().sequenceNumber()))).toList();
            assertEquals(expected, records.stream().map(StrongGlobalTablesTest::change).toList(), region);
            List<String> withSequenceNumbers = records.stream()
                    .map(rec -> rec.dynamodb().sequenceNumber() + " " + change(rec)).toList();
            if (inA == null) {
                inA = withSequenceNumbers;
            } else {
                assertEquals(inA, withSequenceNumbers, region + "'s records against " + A + "'s");
            }
        }

        // The stream is the table's: disabled in another region, it is disabled in every region.
        regions.client(B).updateTable(r -> r.tableName(table).streamSpecification(s -> s.streamEnabled(false)));
        for (String region : List.of(A, B, C)) {
            Eventually.until("the stream off in " + region, CREATION, () -> regions.describe(region, table),
                    t -> t.streamSpecification() == null || !t.streamSpecification().streamEnabled());
        }
    }

    /**
     * The consensus port (Raft's votes and log entries, which write the tables' items) answers
     * only the peer regions, over mutual TLS with their pinned certificates: not a client without
     * a certificate, not one with a certificate from elsewhere, not one speaking plain HTTP/2.
     * (Every other test here runs its groups over that TLS.)
     */
    @Test
    void theConsensusPortAnswersOnlyThePeerRegions() throws Exception {
        StrongGlobalTables.threeReplicas(regions); // the groups up, their members speaking TLS to each other
        int port = Integer.parseInt(Files.readString(regions.regions().dataDirectory(A).resolve("consensus")
                .resolve("port")).trim());

        // A peer region's key is answered: the server's HTTP/2 settings come back.
        try (SSLSocket peer = open(port, tlsClient(keys(regions.regions().dataDirectory(B).resolve("consensus")
                .resolve("tls").resolve("consensus.p12"), "stator-consensus")))) {
            peer.startHandshake();
            peer.getOutputStream().write(HTTP2_PREFACE);
            peer.getOutputStream().flush();
            assertTrue(peer.getInputStream().read() >= 0, "a peer region is answered");
        }
        assertRefused(port, tlsClient(null));
        assertRefused(port, tlsClient(keys(TestCertificates.get().directory().resolve("server.p12"), "stator-test")));
        try (Socket plain = new Socket(InetAddress.getLoopbackAddress(), port)) {
            plain.setSoTimeout(10_000);
            plain.getOutputStream().write(HTTP2_PREFACE);
            int first;
            try {
                first = plain.getInputStream().read();
            } catch (IOException reset) {
                first = -1;
            }
            assertTrue(first == -1 || first == 0x15, "plain HTTP/2 got an answer other than a TLS alert: " + first);
        }
    }

    private static final byte[] HTTP2_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** A TLS client that trusts any server and presents {@code keys}' certificate (none when null). */
    private static SSLContext tlsClient(KeyManager[] keys) throws Exception {
        TrustManager trustAll = new X509TrustManager() {
            @Override public void checkClientTrusted(X509Certificate[] chain, String authType) { }
            @Override public void checkServerTrusted(X509Certificate[] chain, String authType) { }
            @Override public X509Certificate[] getAcceptedIssuers() { return new X509Certificate[0]; }
        };
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys, new TrustManager[] {trustAll}, null);
        return context;
    }

    private static KeyManager[] keys(java.nio.file.Path store, String password) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(store)) {
            keys.load(in, password.toCharArray());
        }
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, password.toCharArray());
        return factory.getKeyManagers();
    }

    /** A TLS 1.3 connection offering HTTP/2, not yet shaken hands. */
    private static SSLSocket open(int port, SSLContext client) throws IOException {
        SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), port);
        socket.setSoTimeout(10_000);
        SSLParameters p = socket.getSSLParameters();
        p.setProtocols(new String[] {"TLSv1.3"});
        p.setApplicationProtocols(new String[] {"h2"});
        socket.setSSLParameters(p);
        return socket;
    }

    /** The handshake fails, or the server closes the connection before answering anything. */
    private static void assertRefused(int port, SSLContext client) throws Exception {
        try (SSLSocket socket = open(port, client)) {
            try {
                socket.startHandshake();
                socket.getOutputStream().write(HTTP2_PREFACE);
                socket.getOutputStream().flush();
            } catch (IOException refused) {
                return; // refused in the handshake
            }
            assertNoAnswer(socket); // TLS 1.3: the server's refusal of the client's certificate comes after
        }
    }

    private static void assertNoAnswer(Socket socket) {
        try {
            assertEquals(-1, socket.getInputStream().read(), "the consensus server answered a stranger");
        } catch (IOException refused) {
            // refused: reset, or a TLS alert
        }
    }

    /** A record as "EVENT id old>new" (the values of "v", null when without an image). */
    private static String change(Record rec) {
        var d = rec.dynamodb();
        String before = d.hasOldImage() && !d.oldImage().isEmpty() ? d.oldImage().get("v").s() : "null";
        String after = d.hasNewImage() && !d.newImage().isEmpty() ? d.newImage().get("v").s() : "null";
        return rec.eventNameAsString() + " " + d.keys().get("id").s() + " " + before + ">" + after;
    }

    private static List<Record> streamRecords(String region, String table) {
        String arn = regions.client(region).describeTable(r -> r.tableName(table)).table().latestStreamArn();
        try (DynamoDbStreamsClient streams = StreamReading.client(regions.endpoint(region), region)) {
            return StreamReading.readAll(streams, arn);
        }
    }

    /** UpdateTable in A with the mode (null: none given), replica updates and witness updates given. */
    private static void update(String table, MultiRegionConsistency consistency, List<ReplicationGroupUpdate> replicas,
                               List<GlobalTableWitnessGroupUpdate> witnesses) {
        a().updateTable(r -> {
            r.tableName(table);
            if (consistency != null) r.multiRegionConsistency(consistency);
            if (!replicas.isEmpty()) r.replicaUpdates(replicas);
            if (!witnesses.isEmpty()) r.globalTableWitnessUpdates(witnesses);
        });
    }

    /** A refusal whose type DynamoDB is known to answer but whose text is not known: ValidationException, 400. */
    private static AwsServiceException assertValidationType(Executable call) {
        AwsServiceException e = assertThrows(AwsServiceException.class, call);
        assertEquals("ValidationException", e.awsErrorDetails().errorCode(), () -> "message: "
                + e.awsErrorDetails().errorMessage());
        assertEquals(400, e.statusCode());
        return e;
    }

    /** A refused request changed nothing: the table is regional and ACTIVE in A, and B and C have none. */
    private static void assertStillRegional(String table) {
        TableDescription t = regions.describe(A, table);
        assertEquals("ACTIVE", t.tableStatusAsString());
        assertFalse(t.hasReplicas(), "no Replicas: " + t.replicas());
        assertNull(t.globalTableVersion());
        assertNull(t.multiRegionConsistency());
        assertEquals(Map.of(), witnesses(t));
        assertNull(regions.describe(B, table));
        assertNull(regions.describe(C, table));
    }

    private static AttributeDefinition def(String name) {
        return AttributeDefinition.builder().attributeName(name).attributeType(ScalarAttributeType.S).build();
    }

    private static KeySchemaElement element(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}

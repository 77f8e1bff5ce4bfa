package io.stator.server.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateReplicationGroupMemberAction;
import software.amazon.awssdk.services.dynamodb.model.DeleteReplicationGroupMemberAction;
import software.amazon.awssdk.services.dynamodb.model.ReplicaDescription;
import software.amazon.awssdk.services.dynamodb.model.ReplicationGroupUpdate;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

/**
 * Regions of global tables as separate Stator processes ({@link Regions}): each with every other
 * as a peer (--replica-peers), one secret, the fault hook (--replication-faults) and options of its
 * own (a clock skew, a tombstone retention). Helpers to make a table global and to wait for what
 * replication brings.
 */
public final class GlobalTableRegions implements AutoCloseable {

    public static final String SECRET = "global-tables-test-secret";
    /** How long a replicated change may take to arrive in these tests: generous, on a busy machine. */
    public static final Duration ARRIVAL = Duration.ofSeconds(30);

    private final Regions regions;
    private final HttpClient http = HttpClient.newHttpClient();

    private GlobalTableRegions(Regions regions) {
        this.regions = regions;
    }

    /** Regions in this order, each with the options given for it (none when absent). */
    public static GlobalTableRegions start(List<String> names, Map<String, List<String>> options)
            throws IOException, InterruptedException {
        return new GlobalTableRegions(Regions.start(names, (region, endpoints) -> {
            List<String> peers = new ArrayList<>();
            for (Map.Entry<String, URI> e : endpoints.entrySet()) {
                if (!e.getKey().equals(region)) peers.add(e.getKey() + "=" + e.getValue());
            }
            List<String> o = new ArrayList<>(List.of("--replica-peers", String.join(",", peers),
                    "--replication-secret", SECRET, "--replication-faults"));
            o.addAll(options.getOrDefault(region, List.of()));
            return o;
        }));
    }

    public Regions regions() { return regions; }

    public DynamoDbClient client(String region) { return regions.client(region); }

    public URI endpoint(String region) { return regions.endpoint(region); }

    /** Makes {@code from}'s messages to the regions in {@code drop} fail, and delays those to others (one way). */
    public void faults(String from, Set<String> drop, Map<String, Long> delayMillis) throws IOException, InterruptedException {
        StringBuilder json = new StringBuilder("{\"drop\":[");
        int i = 0;
        for (String r : drop) json.append(i++ == 0 ? "" : ",").append('"').append(r).append('"');
        json.append("],\"delayMillis\":{");
        i = 0;
        for (Map.Entry<String, Long> e : delayMillis.entrySet()) {
            json.append(i++ == 0 ? "" : ",").append('"').append(e.getKey()).append("\":").append(e.getValue());
        }
        json.append("}}");
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(endpoint(from).resolve("/_stator/replication/faults"))
                .POST(HttpRequest.BodyPublishers.ofString(json.toString())).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) throw new IllegalStateException("fault hook of " + from + ": " + r.body());
    }

    /** Clears every fault of every region. */
    public void heal() throws IOException, InterruptedException {
        for (String r : regions.regions()) {
            if (regions.isRunning(r)) faults(r, Set.of(), Map.of());
        }
    }

    /** The region's GET /metrics. */
    public String metrics(String region) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(endpoint(region).resolve("/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /** UpdateTable on {@code from} adding a replica in {@code to}; waits until it is ACTIVE in both. */
    public void addReplica(String from, String table, String to) {
        client(from).updateTable(r -> r.tableName(table).replicaUpdates(ReplicationGroupUpdate.builder()
                .create(CreateReplicationGroupMemberAction.builder().regionName(to).build()).build()));
        awaitReplica(from, table, to, "ACTIVE");
        Eventually.until("the table ACTIVE in " + to, ARRIVAL, () -> describe(to, table),
                t -> t != null && t.tableStatusAsString().equals("ACTIVE"));
        Eventually.until("the table ACTIVE in " + from, ARRIVAL, () -> describe(from, table),
                t -> t.tableStatusAsString().equals("ACTIVE"));
    }

    /** UpdateTable on {@code from} deleting the replica in {@code to}; waits until it is gone there. */
    public void deleteReplica(String from, String table, String to) {
        client(from).updateTable(r -> r.tableName(table).replicaUpdates(ReplicationGroupUpdate.builder()
                .delete(DeleteReplicationGroupMemberAction.builder().regionName(to).build()).build()));
        Eventually.until("the replica in " + to + " deleted", ARRIVAL, () -> describe(to, table), t -> t == null);
        Eventually.until("the table ACTIVE in " + from, ARRIVAL, () -> describe(from, table),
                t -> t.tableStatusAsString().equals("ACTIVE") && replica(t, to) == null);
    }

    /** Waits until {@code in}'s description shows the replica of {@code replica} with that status. */
    public void awaitReplica(String in, String table, String replica, String status) {
        Eventually.until(replica + " " + status + " in " + in + "'s Replicas", ARRIVAL, () -> describe(in, table),
                t -> t != null && replica(t, replica) != null && replica(t, replica).replicaStatusAsString().equals(status));
    }

    /** The table's description in the region, or null when it has none. */
    public TableDescription describe(String region, String table) {
        try {
            return client(region).describeTable(r -> r.tableName(table)).table();
        } catch (ResourceNotFoundException e) {
            return null;
        }
    }

    public static ReplicaDescription replica(TableDescription t, String region) {
        if (!t.hasReplicas()) return null;
        for (ReplicaDescription r : t.replicas()) if (r.regionName().equals(region)) return r;
        return null;
    }

    /** The item as read consistently in the region, or null. */
    public Map<String, AttributeValue> get(String region, String table, Map<String, AttributeValue> key) {
        Map<String, AttributeValue> item = client(region).getItem(r -> r.tableName(table).key(key).consistentRead(true)).item();
        return item == null || item.isEmpty() ? null : item;
    }

    /** Waits until the item in the region satisfies {@code done} (given null when absent); returns it. */
    public Map<String, AttributeValue> await(String region, String table, Map<String, AttributeValue> key,
                                             Predicate<Map<String, AttributeValue>> done) {
        return Eventually.until("the item " + key + " in " + region, ARRIVAL, () -> get(region, table, key),
                item -> done.test(item));
    }

    public static Map<String, AttributeValue> key(String id) {
        return Map.of("id", AttributeValue.fromS(id));
    }

    public static Map<String, AttributeValue> item(String id, String v) {
        Map<String, AttributeValue> item = new LinkedHashMap<>();
        item.put("id", AttributeValue.fromS(id));
        item.put("v", AttributeValue.fromS(v));
        return item;
    }

    /** Whether the item's "v" is that value. */
    public static Predicate<Map<String, AttributeValue>> v(String value) {
        return item -> item != null && item.containsKey("v") && value.equals(item.get("v").s());
    }

    @Override
    public void close() throws InterruptedException {
        regions.close();
    }
}

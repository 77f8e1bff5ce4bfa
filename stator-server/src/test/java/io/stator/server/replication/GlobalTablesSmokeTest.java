package io.stator.server.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.StatorTestServer;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateReplicationGroupMemberAction;
import software.amazon.awssdk.services.dynamodb.model.ReplicationGroupUpdate;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

class GlobalTablesSmokeTest {

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void twoRegions() throws Exception {
        int pa = freePort();
        int pb = freePort();
        URI a = URI.create("http://127.0.0.1:" + pa);
        URI b = URI.create("http://127.0.0.1:" + pb);
        try (StatorTestServer sa = StatorTestServer.start(o -> o.withPort(pa).with(m -> m.region = "us-east-1")
                .withReplication(new ReplicationOptions(Map.of("us-west-2", b), "s3cret", Duration.ofHours(24), false)));
             StatorTestServer sb = StatorTestServer.start(o -> o.withPort(pb).with(m -> m.region = "us-west-2")
                     .withReplication(new ReplicationOptions(Map.of("us-east-1", a), "s3cret", Duration.ofHours(24), false)))) {
            DynamoDbClient ca = sa.client();
            DynamoDbClient cb = StatorTestServer.newClient(sb.endpoint(), "us-west-2", StatorTestServer.ACCESS_KEY,
                    StatorTestServer.SECRET_KEY);
            String table = StatorTestServer.tableName();
            StatorTestServer.createTable(ca, table);
            for (int i = 0; i < 100; i++) {
                String k = "k" + i;
                ca.putItem(r -> r.tableName(table).item(Map.of("id", AttributeValue.fromS(k))));
            }
            TableDescription d = ca.updateTable(r -> r.tableName(table).replicaUpdates(ReplicationGroupUpdate.builder()
                    .create(CreateReplicationGroupMemberAction.builder().regionName("us-west-2").build()).build()))
                    .tableDescription();
            System.out.println(d);
            Eventually.until("replica active", Duration.ofSeconds(20), () -> ca.describeTable(r -> r.tableName(table)).table(),
                    t -> t.hasReplicas() && t.replicas().get(0).replicaStatusAsString().equals("ACTIVE"));
            System.out.println(ca.describeTable(r -> r.tableName(table)).table());
            System.out.println(cb.describeTable(r -> r.tableName(table)).table());
            assertEquals(100, cb.scan(r -> r.tableName(table)).count());
            ca.putItem(r -> r.tableName(table).item(Map.of("id", AttributeValue.fromS("new"), "v", AttributeValue.fromS("a"))));
            Eventually.until("a on b", Duration.ofSeconds(10),
                    () -> cb.getItem(r -> r.tableName(table).key(Map.of("id", AttributeValue.fromS("new")))).item(),
                    i -> i.containsKey("v") && i.get("v").s().equals("a"));
            cb.putItem(r -> r.tableName(table).item(Map.of("id", AttributeValue.fromS("new"), "v", AttributeValue.fromS("b"))));
            Eventually.until("b on a", Duration.ofSeconds(10),
                    () -> ca.getItem(r -> r.tableName(table).key(Map.of("id", AttributeValue.fromS("new")))).item(),
                    i -> i.containsKey("v") && i.get("v").s().equals("b"));
        }
    }
}

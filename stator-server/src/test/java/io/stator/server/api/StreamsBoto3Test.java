package io.stator.server.api;

import static io.stator.server.testing.AwsCli.requireOnPath;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.server.testing.AwsCli;
import io.stator.server.testing.CommandProcess;
import io.stator.server.testing.CommandProcess.Result;
import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import io.stator.server.testing.StatorTestServer;
import io.stator.server.testing.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TimeToLiveStatus;

/**
 * The stream read by another SDK: boto3's {@code dynamodbstreams} client (botocore signs and
 * parses on its own, by its own copy of the service model) walks every shard from TRIM_HORIZON
 * and prints what it parsed; the test compares it with the writes, a Time to Live deletion's
 * userIdentity included. Python 3 with boto3 must be installed: without it this test fails,
 * saying so, as BinStatorAndAwsCliIT does.
 */
class StreamsBoto3Test {

    private static final TestClock CLOCK = new TestClock();

    @RegisterExtension
    static final SharedServer server = new SharedServer(o -> o.withClock(CLOCK));

    @TempDir
    Path dir;

    private static final String SCRIPT = """
            import sys, boto3
            endpoint, arn = sys.argv[1], sys.argv[2]
            c = boto3.client("dynamodbstreams", endpoint_url=endpoint, region_name="us-east-1")
            shards, start = [], None
            while True:
                d = c.describe_stream(StreamArn=arn, **({"ExclusiveStartShardId": start} if start else {}))["StreamDescription"]
                shards += d["Shards"]
                start = d.get("LastEvaluatedShardId")
                if not start:
                    break
            for shard in shards:
                it = c.get_shard_iterator(StreamArn=arn, ShardId=shard["ShardId"], ShardIteratorType="TRIM_HORIZON")["ShardIterator"]
                while it:
                    page = c.get_records(ShardIterator=it)
                    for r in page["Records"]:
                        d = r["dynamodb"]
                        ident = r.get("userIdentity")
                        print(r["eventName"], d["Keys"]["pk"]["S"],
                              d.get("OldImage", {}).get("v", {}).get("S", "-"),
                              d.get("NewImage", {}).get("v", {}).get("S", "-"),
                              (ident["Type"] + "/" + ident["PrincipalId"]) if ident else "client",
                              d["StreamViewType"], len(d["SequenceNumber"]) >= 21)
                    if not page["Records"]:
                        break
                    it = page.get("NextShardIterator")
            """;

    @AfterAll
    static void followSystemTime() {
        CLOCK.useSystemTime();
    }

    @Test
    void boto3ReadsEveryRecordWithItsImagesAndTheServiceIdentity() throws Exception {
        CLOCK.set(Instant.now().truncatedTo(ChronoUnit.SECONDS));
        DynamoDbClient client = server.client();
        String table = StatorTestServer.tableName();
        client.createTable(b -> b.tableName(table).billingMode("PAY_PER_REQUEST")
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .streamSpecification(s -> s.streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)));
        client.updateTimeToLive(b -> b.tableName(table).timeToLiveSpecification(t -> t.enabled(true).attributeName("exp")));
        Eventually.until("ENABLED", () -> client.describeTimeToLive(b -> b.tableName(table)).timeToLiveDescription()
                .timeToLiveStatus(), TimeToLiveStatus.ENABLED::equals);
        long now = CLOCK.instant().getEpochSecond();
        client.putItem(b -> b.tableName(table).item(Map.of("pk", s("a"), "v", s("1"))));
        client.updateItem(b -> b.tableName(table).key(Map.of("pk", s("a"))).updateExpression("SET v = :v")
                .expressionAttributeValues(Map.of(":v", s("2"))));
        client.deleteItem(b -> b.tableName(table).key(Map.of("pk", s("a"))));
        client.putItem(b -> b.tableName(table).item(Map.of("pk", s("t"), "v", s("9"),
                "exp", AttributeValue.fromN(Long.toString(now + 60)))));
        CLOCK.advance(Duration.ofSeconds(61));
        Eventually.until("the expired item is deleted",
                () -> client.getItem(b -> b.tableName(table).key(Map.of("pk", s("t"))).consistentRead(true)).hasItem(),
                present -> !present);
        String arn = client.describeTable(b -> b.tableName(table)).table().latestStreamArn();

        String python = requireOnPath("python3", "install Python 3 with boto3 (pip install boto3)");
        Map<String, String> environment = AwsCli.environment(dir);
        environment.put("AWS_ACCESS_KEY_ID", StatorTestServer.ACCESS_KEY);
        environment.put("AWS_SECRET_ACCESS_KEY", StatorTestServer.SECRET_KEY);
        Result r = CommandProcess.run(List.of(python, "-c", SCRIPT, server.endpoint().toString(), arn), dir, environment,
                Duration.ofSeconds(120));
        assertEquals(0, r.exit(), () -> "boto3 failed (is boto3 installed for " + python + "?): " + r.stderr());
        List<String> lines = r.stdout().lines().toList();
        // Two items, so perhaps two shards: each item's records in order, the items in either order.
        List<String> a = lines.stream().filter(l -> l.split(" ")[1].equals("a")).toList();
        List<String> t = lines.stream().filter(l -> l.split(" ")[1].equals("t")).toList();
        assertEquals(List.of(
                "INSERT a - 1 client NEW_AND_OLD_IMAGES True",
                "MODIFY a 1 2 client NEW_AND_OLD_IMAGES True",
                "REMOVE a 2 - client NEW_AND_OLD_IMAGES True"), a, r.stdout());
        assertEquals(List.of(
                "INSERT t - 9 client NEW_AND_OLD_IMAGES True",
                "REMOVE t 9 - Service/dynamodb.amazonaws.com NEW_AND_OLD_IMAGES True"), t, r.stdout());
        assertEquals(5, lines.size(), r.stdout());
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}

package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.StatorTestServer;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PointInTimeRecoveryDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * --pitr-restorable-lag 0: a test restores a table to its latest restorable time as soon as
 * point-in-time recovery's base is copied, rather than after DynamoDB's five minutes (issue 38),
 * and DescribeContinuousBackups never shows the latest restorable time before the earliest.
 */
class PointInTimeRecoveryLagTest {

    @Test
    void withNoLagATableRestoresToNowAtOnce() throws InterruptedException {
        try (StatorTestServer server = StatorTestServer.start(o -> o.with(m -> m.pitrRestorableLag = Duration.ZERO))) {
            DynamoDbClient dynamo = server.client();
            String table = StatorTestServer.tableName();
            StatorTestServer.createTable(dynamo, table);
            Map<String, AttributeValue> before = Map.of("id", AttributeValue.fromS("before"));
            dynamo.putItem(b -> b.tableName(table).item(before));
            PointInTimeRecoveryDescription enabled = dynamo.updateContinuousBackups(b -> b.tableName(table)
                    .pointInTimeRecoverySpecification(p -> p.pointInTimeRecoveryEnabled(true)))
                    .continuousBackupsDescription().pointInTimeRecoveryDescription();
            assertFalse(enabled.latestRestorableDateTime().isBefore(enabled.earliestRestorableDateTime()), enabled.toString());
            server.engine().backups().awaitIdle(); // the base copied
            Map<String, AttributeValue> after = Map.of("id", AttributeValue.fromS("after"));
            dynamo.putItem(b -> b.tableName(table).item(after));

            String target = StatorTestServer.tableName();
            dynamo.restoreTableToPointInTime(b -> b.sourceTableName(table).targetTableName(target)
                    .useLatestRestorableTime(true));
            Eventually.until(target + " ACTIVE", Duration.ofSeconds(60),
                    () -> dynamo.describeTable(b -> b.tableName(target)).table().tableStatus(), TableStatus.ACTIVE::equals);
            Set<Map<String, AttributeValue>> restored = dynamo.scanPaginator(b -> b.tableName(target)).items().stream()
                    .collect(Collectors.toSet());
            assertEquals(Set.of(before, after), restored);
        }
    }
}

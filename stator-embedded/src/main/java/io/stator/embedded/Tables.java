package io.stator.embedded;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/** What the embedded server does to tables on a test's behalf, through the SDK like any client. */
final class Tables {

    private static final long ACTIVE_TIMEOUT_MILLIS = 30_000;

    private Tables() {}

    /** See {@link EmbeddedStator#awaitActive}. */
    static TableDescription awaitActive(DynamoDbClient client, String table) {
        long deadline = System.nanoTime() + ACTIVE_TIMEOUT_MILLIS * 1_000_000;
        while (true) {
            TableDescription d = client.describeTable(b -> b.tableName(table)).table();
            boolean indexesActive = d.globalSecondaryIndexes().stream()
                    .map(GlobalSecondaryIndexDescription::indexStatus).allMatch(s -> s == IndexStatus.ACTIVE);
            if (d.tableStatus() == TableStatus.ACTIVE && indexesActive) return d;
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(table + " is still " + d.tableStatus() + " after "
                        + ACTIVE_TIMEOUT_MILLIS + " ms");
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    /** Deletes every item of every ACTIVE table: a scan of the keys, deleted 25 at a time. */
    static void deleteAllItems(DynamoDbClient client) {
        for (String table : client.listTablesPaginator().tableNames()) {
            TableDescription d = client.describeTable(b -> b.tableName(table)).table();
            if (d.tableStatus() != TableStatus.ACTIVE) continue;
            Map<String, String> names = new HashMap<>();
            List<String> placeholders = new ArrayList<>();
            for (KeySchemaElement k : d.keySchema()) {
                String placeholder = "#k" + names.size();
                names.put(placeholder, k.attributeName());
                placeholders.add(placeholder);
            }
            List<WriteRequest> deletes = new ArrayList<>();
            for (Map<String, AttributeValue> key : client.scanPaginator(b -> b.tableName(table).consistentRead(true)
                    .projectionExpression(String.join(", ", placeholders)).expressionAttributeNames(names)).items()) {
                deletes.add(WriteRequest.builder().deleteRequest(DeleteRequest.builder().key(key).build()).build());
                if (deletes.size() == 25) {
                    write(client, table, deletes);
                    deletes = new ArrayList<>();
                }
            }
            if (!deletes.isEmpty()) write(client, table, deletes);
        }
    }

    private static void write(DynamoDbClient client, String table, List<WriteRequest> requests) {
        Map<String, List<WriteRequest>> items = Map.of(table, requests);
        for (int attempt = 0; !items.isEmpty(); attempt++) {
            if (attempt > 0) backOff(attempt);
            Map<String, List<WriteRequest>> sent = items;
            BatchWriteItemResponse r = client.batchWriteItem(b -> b.requestItems(sent));
            items = r.unprocessedItems();
        }
    }

    /** Waits before sending unprocessed items again, longer each attempt, as the SDKs do. */
    static void backOff(int attempt) {
        try {
            Thread.sleep(Math.min(1_000, 10L << Math.min(attempt, 6)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}

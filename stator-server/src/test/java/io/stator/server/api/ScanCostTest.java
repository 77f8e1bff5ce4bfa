package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.Eventually;
import io.stator.server.testing.SharedServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * What a question costs asked two ways (the seed): a Scan with a FilterExpression reads
 * and bills every item, 1 MB page by 1 MB page, before the filter; a Query on a sparse index that
 * holds only the matching items costs a few units. On DynamoDB, 400,000 items of about 1 KB make
 * about 400 pages and about 50,000 read units eventually consistent (128.5 a full page: 257 blocks
 * of 4 KB, dynamodb-throughput.md section 3). CI runs a tenth of it; {@code -Dstator.scanCost.items=400000}
 * runs the full size (its figures are in docs/dynamodb/throughput.md).
 */
class ScanCostTest {

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    private static final int ITEMS = Integer.getInteger("stator.scanCost.items", 40_000);
    private static final int MATCHING = 10;

    @Test
    void aFilteredScanBillsEveryItemReadWhileASparseIndexQueryCostsAFewUnits() {
        DynamoDbClient dynamo = server.client();
        String table = "scan-cost-" + System.nanoTime();
        dynamo.createTable(b -> b.tableName(table).billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"),
                        a -> a.attributeName("flagged").attributeType("S"))
                .keySchema(k -> k.attributeName("pk").keyType("HASH"))
                .globalSecondaryIndexes(g -> g.indexName("flagged-only")
                        .keySchema(k -> k.attributeName("flagged").keyType("HASH"))
                        .projection(p -> p.projectionType(ProjectionType.ALL))));
        String pad = "x".repeat(1000); // items of about 1 KB
        List<WriteRequest> batch = new ArrayList<>(25);
        for (int i = 0; i < ITEMS; i++) {
            Map<String, AttributeValue> item = i % (ITEMS / MATCHING) == 0
                    ? Map.of("pk", s("item-" + i), "pad", s(pad), "flagged", s("yes"))
                    : Map.of("pk", s("item-" + i), "pad", s(pad));
            batch.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build());
            if (batch.size() == 25 || i == ITEMS - 1) {
                List<WriteRequest> request = List.copyOf(batch);
                Map<String, List<WriteRequest>> unprocessed = dynamo.batchWriteItem(b -> b.requestItems(
                        Map.of(table, request))).unprocessedItems();
                assertTrue(unprocessed.isEmpty(), "the test server does not throttle");
                batch.clear();
            }
        }

        long scanned = 0;
        long matched = 0;
        int pages = 0;
        double units = 0;
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse page = dynamo.scan(b -> b.tableName(table).filterExpression("flagged = :yes")
                    .expressionAttributeValues(Map.of(":yes", s("yes"))).exclusiveStartKey(from)
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
            scanned += page.scannedCount();
            matched += page.count();
            units += page.consumedCapacity().capacityUnits();
            pages++;
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        System.out.printf("ScanCostTest: %,d items: ScannedCount %,d, Count %d, %d pages, %,.1f read units%n",
                ITEMS, scanned, matched, pages, units);
        assertEquals(ITEMS, scanned);
        assertEquals(MATCHING, matched);
        // 1 KB items, 1 MB pages: about one page per thousand items, each about 128.5 units.
        assertTrue(Math.abs(pages - ITEMS / 1000.0) <= ITEMS / 1000.0 * 0.1 + 1, "pages: " + pages);
        assertTrue(Math.abs(units - ITEMS / 8.0) <= ITEMS / 8.0 * 0.1, "units: " + units);

        // The index is eventually consistent, as DynamoDB's global indexes are.
        QueryResponse query = Eventually.until("the index holds the flagged items", () -> dynamo.query(b -> b
                .tableName(table).indexName("flagged-only").keyConditionExpression("flagged = :yes")
                .expressionAttributeValues(Map.of(":yes", s("yes"))).returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)),
                q -> q.count() == MATCHING);
        assertEquals(1.5, query.consumedCapacity().capacityUnits(), "10 entries of about 1 KB: 3 blocks of 4 KB, halved");
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}

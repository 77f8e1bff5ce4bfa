package io.stator.bench;

import java.io.IOException;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The table every workload runs on, and the JSON of its requests.
 *
 * <p>Layout: item {@code i} has partition key {@code pk = "p" + i / 100} and sort key
 * {@code sk = i % 100}, so every partition holds 100 items and Query has a first page of 10 to
 * read; a number attribute {@code c} (the counter that {@code update} and {@code transact}
 * increment) and a string {@code pad} of random letters bring the item to its target size as
 * DynamoDB measures it (attribute names plus values). Letters rather than a repeated byte so that storage
 * compression does not flatter any server.
 */
record BenchTable(String name, long itemCount, int itemBytes) {

    static final int ITEMS_PER_PARTITION = 100;
    static final int QUERY_PAGE = 10;

    /** DynamoDB's size of everything but the padding: names pk, sk, c, pad, and the key and counter values. */
    private static final int FIXED_BYTES = 2 + 8 + 2 + 2 + 1 + 1 + 3;

    BenchTable {
        if (itemBytes < FIXED_BYTES + 1) throw new IllegalArgumentException("items must be at least " + (FIXED_BYTES + 1) + " bytes");
        if (itemCount < ITEMS_PER_PARTITION) throw new IllegalArgumentException("at least " + ITEMS_PER_PARTITION + " items");
    }

    long partitions() { return (itemCount + ITEMS_PER_PARTITION - 1) / ITEMS_PER_PARTITION; }

    static String partitionKey(long item) {
        return partitionName(item / ITEMS_PER_PARTITION);
    }

    static String partitionName(long partition) {
        return "p" + zeroPadded(partition, 7);
    }

    static String sortKey(long item) {
        return zeroPadded(item % ITEMS_PER_PARTITION, 2);
    }

    /** Creates the table on the server and waits until it is ACTIVE. */
    void create(DynamoRequests requests) throws IOException {
        create(requests, null);
    }

    /**
     * Creates the table tagged with this write isolation ({@code system:write_isolation}; null for
     * none: the server's default) and waits until it is ACTIVE.
     */
    void create(DynamoRequests requests, String writeIsolation) throws IOException {
        String create = createTable();
        if (writeIsolation != null) {
            create = create.substring(0, create.length() - 1)
                    + ",\"Tags\":[{\"Key\":\"system:write_isolation\",\"Value\":\"" + writeIsolation + "\"}]}";
        }
        try (HttpConnection connection = new HttpConnection(requests.endpoint())) {
            if (connection.exchange(requests.build("CreateTable", create)) != 200) {
                throw new IOException("CreateTable answered " + connection.status() + ": " + connection.bodyText());
            }
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (true) {
                connection.exchange(requests.build("DescribeTable", describeTable()));
                if (connection.bodyText().replace(" ", "").contains("\"TableStatus\":\"ACTIVE\"")) return;
                if (System.nanoTime() > deadline) throw new IOException("table " + name + " not ACTIVE after 60 s");
                LockSupport.parkNanos(20_000_000);
            }
        }
    }

    /** The same table with fewer items: what a workload runs on after a load that stopped early. */
    BenchTable withItemCount(long count) {
        return new BenchTable(name, count, itemBytes);
    }

    String createTable() {
        return "{\"TableName\":\"" + name + "\","
                + "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],"
                + "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"}],"
                + "\"BillingMode\":\"PAY_PER_REQUEST\"}";
    }

    String describeTable() {
        return "{\"TableName\":\"" + name + "\"}";
    }

    String putItem(long item) {
        return "{\"TableName\":\"" + name + "\",\"Item\":" + item(item) + "}";
    }

    /** The item's JSON: its key, the counter at 0 and the padding. */
    private String item(long item) {
        char[] pad = new char[itemBytes - FIXED_BYTES];
        // Seeded by the item, so a re-run writes the same bytes; four letters from each random long.
        SplittableRandom random = new SplittableRandom(item * 0x9E3779B97F4A7C15L + itemBytes);
        for (int i = 0; i < pad.length; i += 4) {
            long bits = random.nextLong();
            for (int j = i; j < Math.min(i + 4, pad.length); j++, bits >>>= 16) {
                pad[j] = (char) ('a' + (((bits & 0xFFFF) * 26) >>> 16));
            }
        }
        return "{" + key(item) + ",\"c\":{\"N\":\"0\"},\"pad\":{\"S\":\"" + new String(pad) + "\"}}";
    }

    String getItem(long item, boolean consistent) {
        return "{\"TableName\":\"" + name + "\",\"Key\":{" + key(item) + "}" + (consistent ? ",\"ConsistentRead\":true" : "") + "}";
    }

    /** Increments the counter of an item that exists: a read-check-write on the server. */
    String incrementCounter(long item) {
        return "{" + counterIncrement(item) + "}";
    }

    /**
     * TransactWriteItems of two items: a Put of {@code item} (as {@link #putItem}) and the
     * counter's increment (as {@link #incrementCounter}) of another item, drawn uniformly from
     * the rest of the table and seeded by {@code item}, so that a re-run pairs the same two.
     */
    String putAndIncrement(long item) {
        long other = (item + 1 + new SplittableRandom(item ^ 0x7A11_5AC7L).nextLong(itemCount - 1)) % itemCount;
        return "{\"TransactItems\":[{\"Put\":{\"TableName\":\"" + name + "\",\"Item\":" + item(item) + "}},"
                + "{\"Update\":{" + counterIncrement(other) + "}}]}";
    }

    private String counterIncrement(long item) {
        return "\"TableName\":\"" + name + "\",\"Key\":{" + key(item) + "},"
                + "\"UpdateExpression\":\"SET c = c + :one\",\"ConditionExpression\":\"attribute_exists(pk)\","
                + "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"}}";
    }

    String queryFirstPage(long partition) {
        return "{\"TableName\":\"" + name + "\",\"KeyConditionExpression\":\"pk = :p\","
                + "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"" + partitionName(partition) + "\"}},\"Limit\":" + QUERY_PAGE + "}";
    }

    /** @param exclusiveStartKey the previous page's LastEvaluatedKey as JSON, or null for the first page */
    String scanPage(String exclusiveStartKey) {
        return "{\"TableName\":\"" + name + "\"" + (exclusiveStartKey == null ? "" : ",\"ExclusiveStartKey\":" + exclusiveStartKey) + "}";
    }

    private static String key(long item) {
        return "\"pk\":{\"S\":\"" + partitionKey(item) + "\"},\"sk\":{\"S\":\"" + sortKey(item) + "\"}";
    }

    private static String zeroPadded(long value, int width) {
        String digits = Long.toString(value);
        return digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
    }
}

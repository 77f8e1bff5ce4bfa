package io.stator.server;

import io.stator.server.protocol.request.BatchExecuteStatementInput;
import io.stator.server.protocol.request.BatchGetItemInput;
import io.stator.server.protocol.request.BatchWriteItemInput;
import io.stator.server.protocol.request.ExecuteStatementInput;
import io.stator.server.protocol.request.ExecuteTransactionInput;
import io.stator.server.protocol.request.KeysAndAttributes;
import io.stator.server.protocol.request.ModelStructure;
import io.stator.server.protocol.request.QueryInput;
import io.stator.server.protocol.request.ScanInput;
import io.stator.server.protocol.request.TransactGetItemsInput;
import io.stator.server.protocol.request.TransactWriteItemsInput;
import java.util.List;
import java.util.Map;

/**
 * The most memory a request may hold while it is served, estimated before it runs from
 * DynamoDB's own limits and what the request asks for, for {@link RequestMemory} to admit it.
 *
 * <p>A read holds the stored bytes of what it reads, then its reply: JSON as long as the items
 * (base64 makes a binary a third longer), written in heap chunks and copied once more into
 * Netty's direct buffers as it is sent ({@link #READ_FACTOR}). What it may read is bounded by
 * DynamoDB's limits: an item is at most 400 KB; a Query or Scan page stops at 1 MB read, the item
 * that reaches it included; a BatchGetItem answers at most 16 MB (the rest comes back as
 * UnprocessedKeys); a transaction's items total at most 4 MB (docs/dynamodb/batches-transactions.md).
 * Within them, the request's own bounds count: a Limit, the number of keys.
 *
 * <p>A write holds its body, its items parsed and encoded, and the old items it reads.
 *
 * <p>What is estimated small is not admitted at all ({@link #ADMITTED_FROM}): table operations,
 * small writes; admitting them would cost a compare-and-set each for nothing.
 */
final class RequestFootprints {

    static final long ITEM = 400 * 1024;
    /** A Query or Scan page: 1 MB read, and the item that reached it. */
    static final long PAGE = 1024 * 1024 + ITEM;
    static final long BATCH_GET = 16L * 1024 * 1024;
    static final long TRANSACTION = 4L * 1024 * 1024;
    /** BatchExecuteStatement takes at most 25 statements. */
    static final int BATCH_STATEMENTS = 25;
    /** Bytes held per byte read: the stored bytes, the JSON (a third longer for binaries), Netty's copy of it. */
    static final double READ_FACTOR = 3.5;
    /** Bytes held per byte of a write's body: the body, its values parsed, its items encoded. */
    static final int BODY_FACTOR = 4;
    /** Below this a request is not admitted: it cannot matter, and admission would cost it. */
    static final long ADMITTED_FROM = 64 * 1024;

    private RequestFootprints() {}

    /** The estimate for {@code operation} with {@code input}, whose body was {@code bodyBytes} long; 0 when small. */
    static long estimate(String operation, ModelStructure input, int bodyBytes) {
        long bytes = switch (operation) {
            case "GetItem" -> read(ITEM);
            case "Query" -> read(page(((QueryInput) input).limit()));
            case "Scan" -> read(page(((ScanInput) input).limit()));
            case "ExecuteStatement" -> read(page(((ExecuteStatementInput) input).limit()));
            case "BatchGetItem" -> read(Math.min(BATCH_GET, ITEM * keys(((BatchGetItemInput) input).requestItems())));
            case "TransactGetItems" -> read(Math.min(TRANSACTION, ITEM * size(((TransactGetItemsInput) input).transactItems())));
            case "BatchExecuteStatement" ->
                    read(ITEM * Math.min(BATCH_STATEMENTS, size(((BatchExecuteStatementInput) input).statements())));
            case "ExecuteTransaction" ->
                    read(Math.min(TRANSACTION, ITEM * size(((ExecuteTransactionInput) input).transactStatements())));
            case "PutItem", "UpdateItem", "DeleteItem" -> written(bodyBytes, 1);
            case "BatchWriteItem" -> written(bodyBytes, writes(((BatchWriteItemInput) input).requestItems()));
            case "TransactWriteItems" -> written(bodyBytes, size(((TransactWriteItemsInput) input).transactItems()));
            default -> (long) BODY_FACTOR * bodyBytes;
        };
        return bytes < ADMITTED_FROM ? 0 : bytes;
    }

    private static long read(long bytesRead) {
        return (long) (bytesRead * READ_FACTOR);
    }

    /** A write: its body, and each item's old image read (and, to update it, its new one). */
    private static long written(int bodyBytes, int items) {
        return (long) BODY_FACTOR * bodyBytes + 2 * ITEM * items;
    }

    private static long page(Integer limit) {
        return limit == null || limit <= 0 ? PAGE : Math.min(PAGE, ITEM * limit);
    }

    private static int size(List<?> list) {
        return list == null ? 0 : list.size();
    }

    private static int keys(Map<String, KeysAndAttributes> requestItems) {
        if (requestItems == null) return 0;
        int keys = 0;
        for (KeysAndAttributes k : requestItems.values()) {
            if (k != null && k.keys() != null && k.keys().raw() instanceof List<?> list) keys += list.size();
        }
        return keys;
    }

    private static int writes(Map<String, ? extends List<?>> requestItems) {
        if (requestItems == null) return 0;
        int writes = 0;
        for (List<?> w : requestItems.values()) writes += size(w);
        return writes;
    }
}

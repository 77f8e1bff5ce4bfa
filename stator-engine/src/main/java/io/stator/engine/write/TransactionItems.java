package io.stator.engine.write;

import io.stator.core.error.DynamoDbException;
import io.stator.core.item.ItemSize;
import io.stator.core.model.AttributeValue;
import io.stator.engine.item.RowKeys;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * DynamoDB's rules on a transaction's items taken together: no item named twice, and at most
 * 4 MB of them. Every transaction the engine runs is held to them ({@link Transactions#write},
 * {@code Items.transactGet}); a front end that must report them earlier in DynamoDB's order
 * gathers its actions here as it reads them (TransactWriteItems, TransactGetItems,
 * ExecuteTransaction) and calls {@link #checkDistinct} and {@link #checkPayload} where that order
 * puts them, so that each rule is written once.
 */
public final class TransactionItems {

    /** DynamoDB's limit on the items of a transaction (developer guide, "Amazon DynamoDB Transactions"). */
    public static final long MAX_PAYLOAD_BYTES = 4L * 1024 * 1024;

    /** What DynamoDB answers a transaction that names one item twice. */
    static final String DUPLICATE = "Transaction request cannot include multiple operations on one item";

    private final Set<ByteBuffer> named = new HashSet<>();
    private boolean repeated;
    private long payload;

    /**
     * An item the transaction names, by its table and its key (or its whole item); a key that
     * fits no item of the table is passed over: that is its own error, reported after these.
     */
    public void name(TableDefinition table, Map<String, AttributeValue> keyOrItem) {
        if (keyOrItem == null || !fitsSchema(table.keySchema(), keyOrItem)) return;
        name(RowKeys.of(table, keyOrItem));
    }

    /** The item a checked write names. */
    public void name(ItemWrite write) {
        name(write.rowKey());
    }

    private void name(byte[] rowKey) {
        if (!named.add(ByteBuffer.wrap(rowKey))) repeated = true;
    }

    /** Counts an item (or a key) the request carries towards the transaction's payload. */
    public void carry(Map<String, AttributeValue> values) {
        payload += ItemSize.of(values);
    }

    /** Refuses a transaction that names one item twice. */
    public void checkDistinct() {
        if (repeated) throw DynamoDbException.validation(DUPLICATE);
    }

    /** Refuses a transaction whose items carried are more than 4 MB. */
    public void checkPayload() {
        checkPayload(payload);
    }

    /** Refuses a transaction of more than 4 MB of items (a TransactGetItems' by the items it read). */
    public static void checkPayload(long bytes) {
        if (bytes > MAX_PAYLOAD_BYTES) {
            // DynamoDB's text for this is not recorded anywhere we could find; it is known to
            // speak of the transaction payload's size.
            throw DynamoDbException.validation("Transaction payload size cannot exceed 4 MB");
        }
    }

    /**
     * Refuses a transaction on a global table with multi-Region strong consistency: DynamoDB does
     * not support transactions there (developer guide, global tables' MRSC); its text is not known.
     */
    public static void checkNotStronglyReplicated(io.stator.engine.table.TableDefinition table) {
        if (table.stronglyReplicated()) {
            throw DynamoDbException.validation("Transactions are not supported for global tables with "
                    + "MultiRegionConsistency set to STRONG: " + table.name());
        }
    }

    /** The engine's own check of a transaction's items, by their storage keys. */
    public static void checkDistinct(List<byte[]> rowKeys) {
        TransactionItems items = new TransactionItems();
        for (byte[] rowKey : rowKeys) items.name(rowKey);
        items.checkDistinct();
    }

    /** True when the key (or item) holds the table's key attributes, of their types. */
    private static boolean fitsSchema(KeySchema schema, Map<String, AttributeValue> keyOrItem) {
        AttributeValue partition = keyOrItem.get(schema.partitionKey());
        if (partition == null || partition.type() != schema.partitionKeyType()) return false;
        if (!schema.hasSortKey()) return true;
        AttributeValue sort = keyOrItem.get(schema.sortKey());
        return sort != null && sort.type() == schema.sortKeyType();
    }
}

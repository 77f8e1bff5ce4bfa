package io.stator.server.api.checks;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.engine.write.ItemWrite;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The Keys of batches and transactions: DynamoDB's check of their values, and which item a batch's write names. */
public final class ItemKeys {

    private ItemKeys() {}

    /**
     * A Key of a batch or a transaction may hold no empty string or binary. DynamoDB refuses it
     * from the request alone, as the request's error, and words it as PutItem does, not as
     * GetItem and DeleteItem do ("are not valid", dynamodb-conformance against DynamoDB in 2026
     * for BatchGetItem, BatchWriteItem's DeleteRequest and TransactWriteItems' Update, Delete and
     * ConditionCheck; TransactGetItems is taken to do the same).
     */
    public static void checkNoEmptyValue(Map<String, AttributeValue> key) {
        for (Map.Entry<String, AttributeValue> e : key.entrySet()) {
            String kind = switch (e.getValue()) {
                case AttributeValue.S s when s.value().isEmpty() -> "string";
                case AttributeValue.B b when b.value().length == 0 -> "binary";
                default -> null;
            };
            if (kind != null) {
                throw DynamoDbException.validation("One or more parameter values are not valid. The AttributeValue "
                        + "for a key attribute cannot contain an empty " + kind + " value. Key: " + e.getKey());
            }
        }
    }

    /** The item a checked write names (its storage key). */
    public static Object identity(ItemWrite write) {
        return ByteBuffer.wrap(write.rowKey());
    }

    /** Refuses a request naming one item twice (BatchWriteItem; a transaction's rule is the engine's {@code TransactionItems}). */
    public static void checkDistinct(List<Object> identities, String message) {
        Set<Object> items = new HashSet<>();
        for (Object identity : identities) {
            if (identity != null && !items.add(identity)) throw DynamoDbException.validation(message);
        }
    }
}

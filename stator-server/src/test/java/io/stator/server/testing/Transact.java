package io.stator.server.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Short constructors of TransactWriteItems' and TransactGetItems' actions, and assertions on
 * TransactionCanceledException, so that transaction tests read like the transactions they run.
 */
public final class Transact {

    /** DynamoDB's message for a cancelled transaction, before the list of reason codes. */
    public static final String CANCELLED = "Transaction cancelled, please refer cancellation reasons for specific reasons ";

    private Transact() {}

    public static TransactWriteItem put(String table, Map<String, AttributeValue> item) {
        return TransactWriteItem.builder().put(p -> p.tableName(table).item(item)).build();
    }

    /** A Put under a condition that uses no placeholders. */
    public static TransactWriteItem put(String table, Map<String, AttributeValue> item, String condition) {
        return TransactWriteItem.builder().put(p -> p.tableName(table).item(item).conditionExpression(condition)).build();
    }

    /** An Update; {@code values} may be empty (none sent). */
    public static TransactWriteItem update(String table, Map<String, AttributeValue> key, String updateExpression,
                                           Map<String, AttributeValue> values) {
        return TransactWriteItem.builder().update(u -> {
            u.tableName(table).key(key).updateExpression(updateExpression);
            if (!values.isEmpty()) u.expressionAttributeValues(values);
        }).build();
    }

    /** An Update under a condition, both sharing {@code values} (may be empty). */
    public static TransactWriteItem update(String table, Map<String, AttributeValue> key, String updateExpression,
                                           String condition, Map<String, AttributeValue> values) {
        return TransactWriteItem.builder().update(u -> {
            u.tableName(table).key(key).updateExpression(updateExpression).conditionExpression(condition);
            if (!values.isEmpty()) u.expressionAttributeValues(values);
        }).build();
    }

    public static TransactWriteItem delete(String table, Map<String, AttributeValue> key) {
        return TransactWriteItem.builder().delete(d -> d.tableName(table).key(key)).build();
    }

    public static TransactWriteItem delete(String table, Map<String, AttributeValue> key, String condition) {
        return TransactWriteItem.builder().delete(d -> d.tableName(table).key(key).conditionExpression(condition))
                .build();
    }

    /** A ConditionCheck whose condition uses no placeholders. */
    public static TransactWriteItem check(String table, Map<String, AttributeValue> key, String condition) {
        return TransactWriteItem.builder().conditionCheck(c -> c.tableName(table).key(key)
                .conditionExpression(condition)).build();
    }

    public static TransactGetItem get(String table, Map<String, AttributeValue> key) {
        return TransactGetItem.builder().get(g -> g.tableName(table).key(key)).build();
    }

    /** The reason codes of a cancellation, in action order. */
    public static List<String> codes(TransactionCanceledException e) {
        return e.cancellationReasons().stream().map(CancellationReason::code).toList();
    }

    /**
     * Runs {@code call}, which must fail with TransactionCanceledException (HTTP 400) whose
     * reasons have exactly these codes, in order, and whose message lists them as DynamoDB's does.
     */
    public static TransactionCanceledException assertCancelled(List<String> codes, Executable call) {
        TransactionCanceledException e = assertThrows(TransactionCanceledException.class, call);
        assertEquals("TransactionCanceledException", e.awsErrorDetails().errorCode());
        assertEquals(400, e.statusCode());
        assertEquals(codes, codes(e));
        assertEquals(CANCELLED + "[" + String.join(", ", codes) + "]", e.awsErrorDetails().errorMessage());
        return e;
    }
}

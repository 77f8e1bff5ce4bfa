package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.ItemTables.ANY_SHAPE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.ItemTables;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * Optimistic concurrency on one item, the way applications do it: read the version, then write
 * "only if the version is still what I read". If the condition and the write were not one atomic
 * step, two writers could both see version k and both succeed, and an increment would be lost.
 */
class ConditionalIncrementConcurrencyTest {

    private static final int THREADS = 8;
    private static final int INCREMENTS_PER_THREAD = 500;

    @RegisterExtension
    static final ItemTables db = new ItemTables();

    /** An item with a counter n and a version v, both 0. */
    private static Map<String, AttributeValue> counterItem() {
        Map<String, AttributeValue> item = ANY_SHAPE.newItem(item("n", n("0"), "v", n("0")));
        db.put(ANY_SHAPE, item);
        return item;
    }

    private static long version(Map<String, AttributeValue> key) {
        return Long.parseLong(db.read(ANY_SHAPE, key).get("v").n());
    }

    /**
     * Increments n and v if v is still {@code expected}; returns the new v, or -1 when another
     * writer got there first.
     */
    private static long incrementIf(Map<String, AttributeValue> key, long expected) {
        try {
            Map<String, AttributeValue> updated = db.client().updateItem(b -> b.tableName(db.table(ANY_SHAPE))
                    .key(ItemTables.keyOf(ANY_SHAPE, key))
                    .updateExpression("SET n = n + :one, v = v + :one")
                    .conditionExpression("v = :expected")
                    .expressionAttributeValues(item(":one", n("1"), ":expected", n(Long.toString(expected))))
                    .returnValues(ReturnValue.UPDATED_NEW)).attributes();
            assertEquals(updated.get("n"), updated.get("v"), "n and v move together");
            return Long.parseLong(updated.get("v").n());
        } catch (ConditionalCheckFailedException e) {
            return -1;
        }
    }

    /** Runs {@code body} on each of {@link #THREADS} threads at once; rethrows any failure. */
    private static void onEveryThread(Callable<Void> body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Void>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) futures.add(pool.submit(body));
            for (Future<Void> f : futures) f.get();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void conditionalIncrementsRetriedAfterEachFailureEndWithTheExactTotal() throws Exception {
        Map<String, AttributeValue> key = counterItem();
        List<Long> versionsWritten = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger failures = new AtomicInteger();

        onEveryThread(() -> {
            for (int i = 0; i < INCREMENTS_PER_THREAD; i++) {
                long written;
                while ((written = incrementIf(key, version(key))) < 0) failures.incrementAndGet();
                versionsWritten.add(written);
            }
            return null;
        });

        int total = THREADS * INCREMENTS_PER_THREAD;
        Map<String, AttributeValue> last = db.read(ANY_SHAPE, key);
        assertEquals(Integer.toString(total), last.get("n").n());
        assertEquals(Integer.toString(total), last.get("v").n());
        // Every version from 1 to the total was written once: no two writers succeeded from one read.
        List<Long> sorted = new ArrayList<>(versionsWritten);
        Collections.sort(sorted);
        for (int i = 0; i < total; i++) assertEquals(i + 1, sorted.get(i));
        assertTrue(failures.get() > 0, "the writers did contend (else this test proves nothing)");
    }

    @Test
    void withoutRetriesTheSuccessesAreExactlyTheFinalValue() throws Exception {
        Map<String, AttributeValue> key = counterItem();
        AtomicInteger successes = new AtomicInteger();
        AtomicInteger failures = new AtomicInteger();

        onEveryThread(() -> {
            for (int i = 0; i < INCREMENTS_PER_THREAD; i++) {
                if (incrementIf(key, version(key)) < 0) failures.incrementAndGet();
                else successes.incrementAndGet();
            }
            return null;
        });

        assertEquals(THREADS * INCREMENTS_PER_THREAD, successes.get() + failures.get());
        Map<String, AttributeValue> last = db.read(ANY_SHAPE, key);
        assertEquals(Integer.toString(successes.get()), last.get("n").n());
        assertEquals(Integer.toString(successes.get()), last.get("v").n());
        assertTrue(successes.get() > 0);
    }
}

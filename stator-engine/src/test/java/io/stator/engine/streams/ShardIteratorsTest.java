package io.stator.engine.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.engine.testing.MovableClock;
import io.stator.storage.rocksdb.RocksStorage;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shard iterators are the server's word: signed with a key kept in the storage (so another
 * server on it, or this one after a restart, accepts them and no one else does), every field
 * range-checked even under a valid signature, good for exactly 15 minutes.
 */
class ShardIteratorsTest {

    private static final Instant T0 = Instant.parse("2026-06-01T00:00:00Z");

    @TempDir
    Path directory;

    private static ShardIterators.Position at(long position, long issued) {
        return new ShardIterators.Position("orders", "2026-06-01T00:00:00.000", T0.toEpochMilli(), 3, 7, position, issued);
    }

    @Test
    void anIteratorHoldsOnEveryServerOfItsStorageAndAfterARestartAndNowhereElse() {
        MovableClock clock = new MovableClock(T0);
        String iterator;
        try (RocksStorage storage = RocksStorage.open(directory.resolve("one"), Keyspaces.ALL)) {
            ShardIterators server = new ShardIterators(storage, clock);
            iterator = server.encode(at(42, clock.millis()));
            assertEquals(at(42, clock.millis()), server.verify(iterator));
            assertEquals(at(42, clock.millis()), new ShardIterators(storage, clock).verify(iterator));
        }
        try (RocksStorage again = RocksStorage.open(directory.resolve("one"), Keyspaces.ALL)) {
            assertEquals(at(42, clock.millis()), new ShardIterators(again, clock).verify(iterator));
        }
        try (RocksStorage other = RocksStorage.open(directory.resolve("two"), Keyspaces.ALL)) {
            assertInvalid(new ShardIterators(other, clock), iterator);
        }
    }

    @Test
    void anIteratorIsGoodForExactlyFifteenMinutes() {
        MovableClock clock = new MovableClock(T0);
        try (RocksStorage storage = RocksStorage.open(directory, Keyspaces.ALL)) {
            ShardIterators iterators = new ShardIterators(storage, clock);
            String iterator = iterators.encode(at(1, clock.millis()));
            clock.advance(Duration.ofMinutes(15));
            assertEquals(1, iterators.verify(iterator).position());
            clock.advance(Duration.ofMillis(1));
            DynamoDbException expired = assertThrows(DynamoDbException.class, () -> iterators.verify(iterator));
            assertEquals(ErrorType.EXPIRED_ITERATOR, expired.type());
        }
    }

    @Test
    void everyFieldIsCheckedEvenUnderAValidSignature() {
        MovableClock clock = new MovableClock(T0);
        try (RocksStorage storage = RocksStorage.open(directory, Keyspaces.ALL)) {
            ShardIterators iterators = new ShardIterators(storage, clock);
            long now = clock.millis();
            // Issued ten years ahead (the probe's forged iterator never expired), or just past
            // the minute allowed for another server's clock.
            assertInvalid(iterators, iterators.encode(at(0, now + Duration.ofDays(3650).toMillis())));
            assertInvalid(iterators, iterators.encode(at(0, now + 60_001)));
            assertEquals(0, iterators.verify(iterators.encode(at(0, now + 60_000))).position());
            assertInvalid(iterators, iterators.encode(at(-1, now)));
            assertInvalid(iterators, iterators.encode(new ShardIterators.Position("orders", "l", T0.toEpochMilli(), 0, -5, 0, now)));
            assertInvalid(iterators, iterators.encode(new ShardIterators.Position("orders", "l", -1, 0, 0, 0, now)));
            assertInvalid(iterators, iterators.encode(new ShardIterators.Position("orders", "", T0.toEpochMilli(), 0, 0, 0, now)));
            assertInvalid(iterators, iterators.encode(at(0, -1)));
        }
    }

    @Test
    void aChangedOrMadeUpIteratorIsRefused() {
        MovableClock clock = new MovableClock(T0);
        try (RocksStorage storage = RocksStorage.open(directory, Keyspaces.ALL)) {
            ShardIterators iterators = new ShardIterators(storage, clock);
            byte[] genuine = Base64.getUrlDecoder().decode(iterators.encode(at(5, clock.millis())));
            for (int i = 0; i < genuine.length; i++) {
                byte[] changed = genuine.clone();
                changed[i] ^= 1;
                assertInvalid(iterators, Base64.getUrlEncoder().withoutPadding().encodeToString(changed));
            }
            // Any other last character, those that differ from it only in bits the decoder ignores too.
            String text = iterators.encode(at(5, clock.millis()));
            String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
            for (char c : alphabet.toCharArray()) {
                if (c != text.charAt(text.length() - 1)) assertInvalid(iterators, text.substring(0, text.length() - 1) + c);
            }
            assertInvalid(iterators, "");
            assertInvalid(iterators, "not an iterator!");
            assertInvalid(iterators, Base64.getUrlEncoder().encodeToString(new byte[40]));
            assertInvalid(iterators, "A".repeat(2049));
        }
    }

    private static void assertInvalid(ShardIterators iterators, String iterator) {
        DynamoDbException e = assertThrows(DynamoDbException.class, () -> iterators.verify(iterator));
        assertEquals(ErrorType.VALIDATION, e.type());
        assertEquals("Invalid ShardIterator", e.getMessage());
    }
}

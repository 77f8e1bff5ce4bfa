package io.stator.engine.streams;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.engine.keyspace.Keyspaces;
import io.stator.storage.CommitLostException;
import io.stator.storage.Storage;
import io.stator.storage.WriteBatch;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Arrays;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Shard iterators as GetShardIterator and GetRecords hand them out: opaque, authenticated and
 * short-lived. An iterator says which stream, which shard and where in it, and when it was
 * issued; a client can neither read nor forge one. DynamoDB's are opaque too, and "A shard
 * iterator expires 15 minutes after it is returned to the requester" (API reference,
 * GetShardIterator); its GetRecords is authorized on the stream the iterator names, so the
 * iterator must be the server's word for that stream.
 *
 * <p><b>Format</b> (version 1), base64url without padding: {@code u8 version; u16 table name
 * length; table name, UTF-8; u8 stream label length; stream label, UTF-8; i64 stream creation
 * (epoch ms); u16 shard slot; i64 generation; i64
 * position (sequence number); i64 issued (epoch ms); 16 bytes: HMAC-SHA256 of everything before,
 * truncated}. The MAC's key is 32 random bytes made once and kept in the STREAMS key space (under
 * a key no stream's key can take: streams' keys start with their table's name), so that the
 * iterators of one server hold on another sharing its storage, and after a restart.
 *
 * <p>Every field is checked on the way in (the MAC first, then the ranges); a bad iterator is
 * DynamoDB Local's ValidationException "Invalid ShardIterator", an old one ExpiredIteratorException.
 */
final class ShardIterators {

    /** "A shard iterator expires 15 minutes after it is returned to the requester" (API reference, GetShardIterator). */
    static final long LIFETIME_MILLIS = 15 * 60 * 1000;
    /** How far ahead of this server's clock an iterator may say it was issued (another server's clock). */
    private static final long CLOCK_SKEW_MILLIS = 60 * 1000;
    private static final byte VERSION = 1;
    private static final int MAC_BYTES = 16;
    private static final int MAX_TABLE_NAME_BYTES = 255;
    /** The API's limit on a ShardIterator's length (service model, ShardIterator: max 2048). */
    private static final int MAX_TEXT = 2048;
    /** The STREAMS row of the MAC's key: a 0 byte first, which no table name starts with. */
    private static final byte[] KEY_ROW = "\u0000shard-iterator-key".getBytes(StandardCharsets.UTF_8);

    /** Where an iterator points, once verified. */
    record Position(String tableName, String label, long createdMillis, int slot, long generation, long position,
                    long issuedMillis) {}

    private final Storage storage;
    private final Clock clock;
    /** Read (or made) at the first iterator rather than at start: a start on a full disk must not write. */
    private volatile SecretKeySpec key;

    ShardIterators(Storage storage, Clock clock) {
        this.storage = storage;
        this.clock = clock;
    }

    /** The first key of the STREAMS key space after the iterators' key row (where streams' rows begin). */
    static byte[] afterKeyRow() {
        return new byte[] {1};
    }

    /** The iterator of a position, issued now. */
    String issue(StreamInfo stream, int slot, long generation, long position) {
        return encode(new Position(stream.tableName(), stream.label(), stream.createdMillis(), slot, generation, position,
                clock.millis()));
    }

    /** The iterator of a position, signed (package-private: tests sign positions no server would issue). */
    String encode(Position p) {
        byte[] name = p.tableName().getBytes(StandardCharsets.UTF_8);
        byte[] label = p.label().getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(1 + 2 + name.length + 1 + label.length + 8 + 2 + 8 + 8 + 8 + MAC_BYTES);
        b.put(VERSION).putShort((short) name.length).put(name).put((byte) label.length).put(label)
                .putLong(p.createdMillis()).putShort((short) p.slot()).putLong(p.generation()).putLong(p.position())
                .putLong(p.issuedMillis());
        b.put(mac(b.array(), b.position()));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b.array());
    }

    /**
     * The position an iterator points at, after checking that this server (or one sharing its
     * storage) issued it, that it is well formed, and that it has not expired.
     */
    Position verify(String text) {
        Position p = decode(text);
        long now = clock.millis();
        if (p.issuedMillis() > now + CLOCK_SKEW_MILLIS) throw invalid();
        // DynamoDB Local's ExpiredIteratorException has no message (AmazonServiceExceptionType.EXPIRED_SHARD_ITERATOR).
        if (now - p.issuedMillis() > LIFETIME_MILLIS) throw new DynamoDbException(ErrorType.EXPIRED_ITERATOR, null);
        return p;
    }

    private Position decode(String text) {
        if (text == null || text.length() > MAX_TEXT) throw invalid();
        byte[] bytes;
        try {
            bytes = Base64.getUrlDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
        // Only the text this server wrote: the decoder ignores a last character's unused bits, so
        // another character there would read as the same iterator (and a forged text with it).
        if (!Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).equals(text)) throw invalid();
        int signed = bytes.length - MAC_BYTES;
        if (signed < 1 || bytes[0] != VERSION
                || !MessageDigest.isEqual(mac(bytes, signed), Arrays.copyOfRange(bytes, signed, bytes.length))) {
            throw invalid();
        }
        try {
            ByteBuffer b = ByteBuffer.wrap(bytes, 1, signed - 1);
            int nameLength = Short.toUnsignedInt(b.getShort());
            if (nameLength == 0 || nameLength > MAX_TABLE_NAME_BYTES) throw invalid();
            byte[] name = new byte[nameLength];
            b.get(name);
            byte[] label = new byte[Byte.toUnsignedInt(b.get())];
            b.get(label);
            Position p = new Position(new String(name, StandardCharsets.UTF_8), new String(label, StandardCharsets.UTF_8),
                    b.getLong(),
                    Short.toUnsignedInt(b.getShort()), b.getLong(), b.getLong(), b.getLong());
            if (b.hasRemaining() || label.length == 0 || p.createdMillis() < 0 || p.generation() < 0 || p.position() < 0
                    || p.issuedMillis() < 0) {
                throw invalid();
            }
            return p;
        } catch (BufferUnderflowException e) {
            throw invalid();
        }
    }

    private byte[] mac(byte[] bytes, int length) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key());
            mac.update(bytes, 0, length);
            return Arrays.copyOf(mac.doFinal(), MAC_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    private SecretKeySpec key() {
        SecretKeySpec k = key;
        if (k == null) {
            synchronized (this) {
                if (key == null) key = new SecretKeySpec(secret(storage), "HmacSHA256");
                k = key;
            }
        }
        return k;
    }

    private static DynamoDbException invalid() {
        // DynamoDB Local (LocalAmazonDynamoDBStreams.getRecords): ValidationException "Invalid ShardIterator".
        return DynamoDbException.validation("Invalid ShardIterator");
    }

    /**
     * The MAC's key: the stored one, or a new one stored now. Servers sharing a storage that
     * start together agree on one: each writes only where none is (a lost compare-and-set means
     * another's is there, and is read).
     */
    private static byte[] secret(Storage storage) {
        byte[] stored = storage.get(Keyspaces.STREAMS, KEY_ROW);
        if (stored != null) return stored;
        byte[] made = new byte[32];
        new SecureRandom().nextBytes(made);
        try (WriteBatch batch = storage.newBatch()) {
            batch.expect(Keyspaces.STREAMS, KEY_ROW, null);
            batch.put(Keyspaces.STREAMS, KEY_ROW, made);
            storage.commit(batch);
            return made;
        } catch (CommitLostException e) {
            byte[] winner = storage.get(Keyspaces.STREAMS, KEY_ROW);
            if (winner == null) throw new IllegalStateException("the shard iterators' key was lost", e);
            return winner;
        }
    }
}

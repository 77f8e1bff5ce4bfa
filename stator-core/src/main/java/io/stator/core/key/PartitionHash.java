package io.stator.core.key;

import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.core.model.Utf8;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;

/**
 * The 64-bit hash of a partition key, the first thing after the table and index ids in every row
 * key ({@link KeyLayout}): it fixes the order in which Scan returns items, which rows belong to a
 * parallel-scan segment, and which hash range (partition) an item lives in for the capacity
 * model and the stream's shards. Each table keeps the one it was created with (its catalog
 * entry names it), so both are stored formats that must never change.
 *
 * <ul>
 *   <li>{@link #DYNAMODB}, every table created since key layout 2: DynamoDB's own order. The
 *       first 8 bytes (big-endian) of MD5("Outliers" || the key's bytes), where the bytes are
 *       UTF-8 for S, the bytes for B, and DynamoDB's own byte form of a number for N
 *       ({@link #dynamoDbNumberBytes}). The facts are dynalite's (db/index.js {@code hashPrefix},
 *       {@code numToBuffer}), whose test suite is checked against DynamoDB; dynalite compares the
 *       first 24 bits only, then the key's value, where this compares 64 bits. The same hash of
 *       the table's key (partition then sort key bytes) orders a global index's items that share
 *       one index key, as DynamoDB returns them.</li>
 *   <li>{@link #XXH64}, tables created before key layout 2: {@link XxHash64} (seed 0) of the
 *       key's order-preserving {@link KeyEncoding#encode encoding}.</li>
 * </ul>
 * Either way equal numbers spelled differently ("1.50", "15E-1") hash alike, and the key's type
 * is not hashed: a table's partition key has one type.
 */
public enum PartitionHash {

    /** Key layout 1: xxHash64 of the order-preserving encoding. */
    XXH64 {
        @Override
        public long of(AttributeValue partitionKey) {
            return XxHash64.hash(KeyEncoding.encode(partitionKey));
        }

        @Override
        public long of(List<AttributeValue> parts) {
            return XxHash64.hash(KeyLayout.indexPartitionBytes(parts));
        }

        @Override
        public long ofItemKey(AttributeValue partitionKey, AttributeValue sortKeyOrNull) {
            throw new UnsupportedOperationException("key layout 1 orders index ties by the table's key itself");
        }
    },

    /** Key layout 2: DynamoDB's hash, MD5 of the salted key bytes. */
    DYNAMODB {
        @Override
        public long of(AttributeValue partitionKey) {
            MessageDigest md5 = md5();
            md5.update(dynamoDbBytes(partitionKey));
            return prefix(md5);
        }

        /** Several attributes (a multi-attribute index key): their bytes one after another. */
        @Override
        public long of(List<AttributeValue> parts) {
            if (parts.size() == 1) return of(parts.get(0));
            MessageDigest md5 = md5();
            for (AttributeValue part : parts) md5.update(dynamoDbBytes(part));
            return prefix(md5);
        }

        @Override
        public long ofItemKey(AttributeValue partitionKey, AttributeValue sortKeyOrNull) {
            MessageDigest md5 = md5();
            md5.update(dynamoDbBytes(partitionKey));
            if (sortKeyOrNull != null) md5.update(dynamoDbBytes(sortKeyOrNull));
            return prefix(md5);
        }
    };

    /** The hash of a partition key value (S, N or B). */
    public abstract long of(AttributeValue partitionKey);

    /** The hash of an index partition key of one or several attributes. */
    public abstract long of(List<AttributeValue> parts);

    /**
     * The hash of a table item's whole key, which orders a global index's items sharing one index
     * key (key layout 2 only).
     */
    public abstract long ofItemKey(AttributeValue partitionKey, AttributeValue sortKeyOrNull);

    /** Whether index entries carry {@link #ofItemKey} before the table's key (key layout 2). */
    public boolean ordersIndexTiesByHash() {
        return this == DYNAMODB;
    }

    private static final byte[] SALT = "Outliers".getBytes(StandardCharsets.US_ASCII);

    private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides MD5", e);
        }
    });

    private static MessageDigest md5() {
        MessageDigest md5 = MD5.get();
        md5.reset();
        md5.update(SALT);
        return md5;
    }

    private static long prefix(MessageDigest md5) {
        byte[] digest = md5.digest();
        long h = 0;
        for (int i = 0; i < 8; i++) h = (h << 8) | (digest[i] & 0xFF);
        return h;
    }

    private static byte[] dynamoDbBytes(AttributeValue keyValue) {
        if (keyValue instanceof AttributeValue.S s) return Utf8.encode(s.value());
        if (keyValue instanceof AttributeValue.B b) return b.value();
        if (keyValue instanceof AttributeValue.N n) return dynamoDbNumberBytes(n.value());
        throw KeyEncoding.notAKeyType(keyValue);
    }

    /**
     * DynamoDB's byte form of a number, which its hash reads: zero is {@code 0x80}; otherwise the
     * value is {@code 0.D1 D2 ... x 100^E} with base-100 digits D1 != 0 (the decimal digits paired
     * from a point at an even decimal exponent, the last pair padded with 0). A positive number is
     * {@code E + 192} then each {@code D + 1}; a negative one {@code 63 - E} then each
     * {@code 101 - D}, and a terminating 102 when it has fewer than 20 digits. (Oracle's NUMBER
     * format: 123 is C2 02 18, -123 is 3D 64 4E 66.)
     */
    static byte[] dynamoDbNumberBytes(DynamoNumber number) {
        BigDecimal d = number.bigDecimal();
        if (d.signum() == 0) return new byte[] {(byte) 0x80};
        BigDecimal stripped = d.stripTrailingZeros();
        String digits = stripped.unscaledValue().abs().toString();
        int exponent = digits.length() - stripped.scale(); // value = 0.digits x 10^exponent
        boolean odd = (exponent & 1) != 0;
        int length = digits.length() + (odd ? 1 : 0);
        int pairs = (length + 1) / 2;
        boolean negative = d.signum() < 0;
        byte[] out = new byte[1 + pairs + (negative && pairs < 20 ? 1 : 0)];
        int base100Exponent = (exponent + (odd ? 1 : 0)) / 2;
        out[0] = (byte) (negative ? 63 - base100Exponent : base100Exponent + 192);
        for (int i = 0; i < pairs; i++) {
            int hi = digitAt(digits, 2 * i - (odd ? 1 : 0));
            int lo = digitAt(digits, 2 * i + 1 - (odd ? 1 : 0));
            int pair = hi * 10 + lo;
            out[1 + i] = (byte) (negative ? 101 - pair : pair + 1);
        }
        if (negative && pairs < 20) out[out.length - 1] = 102;
        return out;
    }

    private static int digitAt(String digits, int i) {
        return i < 0 || i >= digits.length() ? 0 : digits.charAt(i) - '0';
    }
}

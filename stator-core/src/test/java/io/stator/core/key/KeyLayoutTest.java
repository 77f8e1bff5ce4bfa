package io.stator.core.key;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.core.model.AttributeValue;
import io.stator.core.model.AttributeValue.Type;
import io.stator.core.model.DynamoNumber;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class KeyLayoutTest {

    private static final HexFormat HEX = HexFormat.of().withUpperCase();
    private static final Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

    // ---- the format, pinned

    @Test
    void itemKeyLayoutIsPinned() {
        byte[] key = KeyLayout.encodeItemKey(PartitionHash.XXH64, 7, 0, s("user#1"), n("1"));
        assertEquals("0000000000000007" + "00000000" + "171C6DF4BA3DF95E" + "0006" + "757365722331" + "038214",
                HEX.formatHex(key));
        assertEquals(0x171C6DF4BA3DF95EL, KeyLayout.hashOf(key));
        assertEquals(7, KeyLayout.tableIdOf(key));
        assertEquals(0, KeyLayout.indexIdOf(key));

        byte[] hashOnly = KeyLayout.encodeItemKey(PartitionHash.XXH64, 7, 0, s("user#1"), null);
        assertEquals("0000000000000007" + "00000000" + "171C6DF4BA3DF95E" + "0006" + "757365722331", HEX.formatHex(hashOnly));
        assertArrayEquals(hashOnly, KeyLayout.partitionPrefix(PartitionHash.XXH64, 7, 0, s("user#1")));
    }

    @Test
    void indexKeyLayoutIsPinned() {
        byte[] key = KeyLayout.encodeIndexKey(PartitionHash.XXH64, 7, 3, s("user#1"), b(0x61, 0x00), s("p"), n("1"));
        assertEquals("0000000000000007" + "00000003" + "171C6DF4BA3DF95E" + "0006" + "757365722331"
                + "6100FF0001" + "0001" + "70" + "038214", HEX.formatHex(key));
    }

    @Test
    void boundsArePinned() {
        assertEquals("0000000000000007", HEX.formatHex(KeyLayout.tablePrefix(7)));
        assertEquals("0000000000000008", HEX.formatHex(KeyLayout.tableUpperBound(7)));
        assertEquals("8000000000000000", HEX.formatHex(KeyLayout.tableUpperBound(Long.MAX_VALUE)));
        assertEquals("000000000000000700000002", HEX.formatHex(KeyLayout.indexPrefix(7, 2)));
        assertEquals("000000000000000700000003", HEX.formatHex(KeyLayout.indexUpperBound(7, 2)));
        assertEquals("000000000000000780000000", HEX.formatHex(KeyLayout.indexUpperBound(7, Integer.MAX_VALUE)));
    }

    // ---- order: partitions, tables, indexes

    @ParameterizedTest(name = "sort key {0}")
    @EnumSource(value = Type.class, names = {"S", "N", "B"})
    void rowsOfOnePartitionAreContiguousAndOrderedBySortKey(Type sortKeyType) {
        Random r = new Random(sortKeyType.ordinal());
        // Partition keys that are prefixes of one another, and ones that are not.
        List<AttributeValue> partitionKeys = new ArrayList<>(List.of(s("a"), s("ab"), s("a\u0000"), s("b"), s("é"), s("😀")));
        for (int i = 0; i < 20; i++) partitionKeys.add(randomKey(r, Type.S));
        partitionKeys = distinct(partitionKeys);

        List<Row> rows = new ArrayList<>();
        for (int p = 0; p < partitionKeys.size(); p++) {
            List<AttributeValue> sortKeys = new ArrayList<>();
            for (int i = 0; i < 40; i++) sortKeys.add(randomKey(r, sortKeyType));
            for (AttributeValue sk : distinct(sortKeys)) {
                rows.add(new Row(p, 0, sk, KeyLayout.encodeItemKey(PartitionHash.XXH64, 42, 0, partitionKeys.get(p), sk)));
            }
        }
        rows.sort((x, y) -> Arrays.compareUnsigned(x.key, y.key));

        Set<Integer> finished = new HashSet<>();
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            if (i > 0 && rows.get(i - 1).partition != row.partition) {
                assertTrue(finished.add(rows.get(i - 1).partition), "partition rows interleave");
                assertFalse(finished.contains(row.partition), "partition rows interleave");
            }
            if (i > 0 && rows.get(i - 1).partition == row.partition) {
                assertTrue(compareDynamo(rows.get(i - 1).sortKey, row.sortKey) < 0,
                        rows.get(i - 1).sortKey + " before " + row.sortKey);
            }
        }
        // The Query range of each partition holds exactly its rows.
        for (int p = 0; p < partitionKeys.size(); p++) {
            byte[] from = KeyLayout.partitionPrefix(PartitionHash.XXH64, 42, 0, partitionKeys.get(p));
            KeyRange range = new KeyRange(from, KeyLayout.prefixUpperBound(from));
            for (Row row : rows) assertEquals(row.partition == p, range.contains(row.key));
        }
    }

    @ParameterizedTest(name = "partition key {0}")
    @EnumSource(value = Type.class, names = {"S", "N", "B"})
    void everyPartitionKeyTypeKeepsItsPartitionContiguous(Type partitionKeyType) {
        Random r = new Random(100 + partitionKeyType.ordinal());
        List<AttributeValue> partitionKeys = new ArrayList<>();
        for (int i = 0; i < 50; i++) partitionKeys.add(randomKey(r, partitionKeyType));
        partitionKeys = distinct(partitionKeys);
        List<Row> rows = new ArrayList<>();
        for (int p = 0; p < partitionKeys.size(); p++) {
            for (int i = 0; i < 10; i++) {
                rows.add(new Row(p, 0, null, KeyLayout.encodeItemKey(PartitionHash.XXH64, 1, 0, partitionKeys.get(p), randomKey(r, Type.B))));
            }
        }
        rows.sort((x, y) -> Arrays.compareUnsigned(x.key, y.key));
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < rows.size(); i++) {
            if (i == 0 || rows.get(i - 1).partition != rows.get(i).partition) {
                assertTrue(seen.add(rows.get(i).partition), "partition rows interleave");
            }
        }
        // Scan order is hash order.
        for (int i = 1; i < rows.size(); i++) {
            assertTrue(Long.compareUnsigned(KeyLayout.hashOf(rows.get(i - 1).key), KeyLayout.hashOf(rows.get(i).key)) <= 0);
        }
    }

    @Test
    void tablesAndIndexesNeverInterleave() {
        long[] tables = {0, 1, 2, 255, 256, 1L << 32, Long.MAX_VALUE - 1, Long.MAX_VALUE};
        int[] indexes = {0, 1, 255, 256, Integer.MAX_VALUE};
        Random r = new Random(3);
        List<Row> rows = new ArrayList<>();
        for (int t = 0; t < tables.length; t++) {
            for (int x = 0; x < indexes.length; x++) {
                for (int i = 0; i < 30; i++) {
                    AttributeValue pk = randomKey(r, Type.B);
                    AttributeValue sk = r.nextBoolean() ? null : randomKey(r, Type.B);
                    byte[] key = x == 0 || r.nextBoolean()
                            ? KeyLayout.encodeItemKey(PartitionHash.XXH64, tables[t], indexes[x], pk, sk)
                            : KeyLayout.encodeIndexKey(PartitionHash.XXH64, tables[t], indexes[x], pk, sk, randomKey(r, Type.S), null);
                    rows.add(new Row(t, x, null, key));
                }
            }
        }
        rows.sort((a, b) -> Arrays.compareUnsigned(a.key, b.key));
        for (int i = 1; i < rows.size(); i++) {
            Row prev = rows.get(i - 1), cur = rows.get(i);
            assertTrue(prev.partition < cur.partition || prev.partition == cur.partition && prev.index <= cur.index,
                    "tables or indexes interleave");
        }
        for (Row row : rows) {
            for (int t = 0; t < tables.length; t++) {
                KeyRange table = new KeyRange(KeyLayout.tablePrefix(tables[t]), KeyLayout.tableUpperBound(tables[t]));
                assertEquals(row.partition == t, table.contains(row.key));
                for (int x = 0; x < indexes.length; x++) {
                    KeyRange index = new KeyRange(KeyLayout.indexPrefix(tables[t], indexes[x]),
                            KeyLayout.indexUpperBound(tables[t], indexes[x]));
                    assertEquals(row.partition == t && row.index == x, index.contains(row.key));
                }
            }
        }
    }

    // ---- parallel scan segments

    @ParameterizedTest(name = "{0} segments")
    @ValueSource(ints = {1, 2, 3, 7, 16, 1000, 1_000_000})
    void segmentBoundsCoverTheHashSpaceExactlyOnceAndInOrder(int total) {
        long table = 5;
        int index = 2;
        BigInteger twoTo64 = BigInteger.ONE.shiftLeft(64);
        BigInteger n = BigInteger.valueOf(total);
        long minSize = twoTo64.divide(n).longValue(); // 2^64 / 1 wraps to 0: unsigned compare below
        KeyRange previous = null;
        for (int s = 0; s < total; s++) {
            KeyRange range = KeyLayout.segmentBounds(table, index, s, total);
            assertArrayEquals(s == 0 ? KeyLayout.hashBound(table, index, 0) : previous.to(), range.from(), "gap or overlap");
            assertTrue(Arrays.compareUnsigned(range.from(), range.to()) < 0, "empty segment " + s);
            long start = KeyLayout.segmentStart(s, total);
            long next = s + 1 < total ? KeyLayout.segmentStart(s + 1, total) : 0; // 2^64 wraps to 0
            long size = next - start;
            assertTrue(size == minSize || size == minSize + 1, "unequal segment " + s + ": " + Long.toUnsignedString(size));
            if (s % 9973 == 0 || s == total - 1) { // ceil(s * 2^64 / N), checked exactly on a sample
                BigInteger[] qr = BigInteger.valueOf(s).shiftLeft(64).divideAndRemainder(n);
                BigInteger ceil = qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
                assertEquals(ceil.longValue(), start);
            }
            previous = range;
        }
        assertArrayEquals(KeyLayout.indexUpperBound(table, index), previous.to());

        // A row lies in exactly the segment segmentOf names, including at every edge of the hash space.
        Random r = new Random(total);
        List<Long> hashes = new ArrayList<>(List.of(0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 1L));
        for (int i = 0; i < 500; i++) hashes.add(r.nextLong());
        for (int i = 0; i < 200; i++) {
            long start = KeyLayout.segmentStart(r.nextInt(total), total);
            hashes.add(start);
            hashes.add(start - 1);
        }
        for (long hash : hashes) {
            byte[] row = Arrays.copyOf(KeyLayout.hashBound(table, index, hash), KeyLayout.PARTITION_KEY_OFFSET + 3);
            int s = KeyLayout.segmentOf(hash, total);
            assertTrue(s >= 0 && s < total);
            assertTrue(KeyLayout.segmentBounds(table, index, s, total).contains(row), Long.toHexString(hash));
            if (s > 0) assertFalse(KeyLayout.segmentBounds(table, index, s - 1, total).contains(row));
            if (s < total - 1) assertFalse(KeyLayout.segmentBounds(table, index, s + 1, total).contains(row));
        }
    }

    @Test
    void realRowsFallInTheirSegment() {
        Random r = new Random(8);
        for (int i = 0; i < 2000; i++) {
            byte[] row = KeyLayout.encodeItemKey(PartitionHash.XXH64, 9, 0, randomKey(r, Type.S), randomKey(r, Type.N));
            int total = 1 + r.nextInt(100);
            int s = KeyLayout.segmentOf(KeyLayout.hashOf(row), total);
            assertTrue(KeyLayout.segmentBounds(9, 0, s, total).contains(row));
        }
    }

    @Test
    void segmentArgumentsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> KeyLayout.segmentBounds(1, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> KeyLayout.segmentBounds(1, 0, 3, 3));
        assertThrows(IllegalArgumentException.class, () -> KeyLayout.segmentBounds(1, 0, -1, 3));
        assertThrows(IllegalArgumentException.class, () -> KeyLayout.segmentOf(1, 0));
    }

    // ---- reading keys back

    @Test
    void itemKeysDecodeBackToTheirAttributeValues() {
        Random r = new Random(12);
        Type[] keyTypes = {Type.S, Type.N, Type.B};
        for (Type pkType : keyTypes) {
            for (Type skType : new Type[] {null, Type.S, Type.N, Type.B}) {
                for (int i = 0; i < 300; i++) {
                    AttributeValue pk = randomKey(r, pkType);
                    AttributeValue sk = skType == null ? null : randomKey(r, skType);
                    long table = r.nextLong() & Long.MAX_VALUE;
                    int index = r.nextInt() & Integer.MAX_VALUE;
                    byte[] key = KeyLayout.encodeItemKey(PartitionHash.XXH64, table, index, pk, sk);
                    DecodedKey decoded = KeyLayout.decodeItemKey(key, pkType, skType);
                    assertEquals(new DecodedKey(table, index, PartitionHash.XXH64.of(pk), pk, sk), decoded);
                }
            }
        }
    }

    @Test
    void indexKeysDecodeBackAndOrderByIndexSortKeyThenBaseKey() {
        Random r = new Random(13);
        Type[] keyTypes = {Type.S, Type.N, Type.B};
        for (Type iskType : new Type[] {null, Type.S, Type.N, Type.B}) {
            for (Type bskType : new Type[] {null, Type.S, Type.N, Type.B}) {
                AttributeValue ipk = randomKey(r, Type.S);
                List<Object[]> entries = new ArrayList<>();
                for (int i = 0; i < 200; i++) {
                    Type ipkType = keyTypes[i % 3];
                    Type bpkType = keyTypes[(i / 3) % 3];
                    AttributeValue anyIpk = randomKey(r, ipkType);
                    AttributeValue isk = iskType == null ? null : randomKey(r, iskType);
                    AttributeValue bpk = randomKey(r, bpkType);
                    AttributeValue bsk = bskType == null ? null : randomKey(r, bskType);
                    byte[] key = KeyLayout.encodeIndexKey(PartitionHash.XXH64, 3, 1, anyIpk, isk, bpk, bsk);
                    assertEquals(new DecodedIndexKey(3, 1, PartitionHash.XXH64.of(anyIpk), anyIpk, isk, bpk, bsk),
                            KeyLayout.decodeIndexKey(PartitionHash.XXH64, key, ipkType, iskType, bpkType, bskType));

                    // Entries of one index partition key, for the order check below.
                    AttributeValue sameBpk = randomKey(r, Type.B);
                    entries.add(new Object[] {isk, sameBpk, KeyLayout.encodeIndexKey(PartitionHash.XXH64, 3, 1, ipk, isk, sameBpk, bsk)});
                }
                entries.sort((x, y) -> Arrays.compareUnsigned((byte[]) x[2], (byte[]) y[2]));
                byte[] prefix = KeyLayout.partitionPrefix(PartitionHash.XXH64, 3, 1, ipk);
                KeyRange partition = new KeyRange(prefix, KeyLayout.prefixUpperBound(prefix));
                for (int i = 0; i < entries.size(); i++) {
                    assertTrue(partition.contains((byte[]) entries.get(i)[2]));
                    if (i > 0 && iskType != null) {
                        assertTrue(compareDynamo((AttributeValue) entries.get(i - 1)[0], (AttributeValue) entries.get(i)[0]) <= 0,
                                "index entries out of index sort key order");
                    }
                }
            }
        }
    }

    @Test
    void equalIndexKeysOfDifferentItemsAreDistinctEntries() {
        byte[] a = KeyLayout.encodeIndexKey(PartitionHash.XXH64, 1, 1, s("g"), s("x"), s("item1"), null);
        byte[] b = KeyLayout.encodeIndexKey(PartitionHash.XXH64, 1, 1, s("g"), s("x"), s("item2"), null);
        assertNotEquals(0, Arrays.compareUnsigned(a, b));
        // An index sort key that extends another still sorts after it, whatever base key follows.
        byte[] shorter = KeyLayout.encodeIndexKey(PartitionHash.XXH64, 1, 1, s("g"), s("a"), b(0xFF, 0xFF), null);
        byte[] longer = KeyLayout.encodeIndexKey(PartitionHash.XXH64, 1, 1, s("g"), s("a\u0000"), b(0x00), null);
        assertTrue(Arrays.compareUnsigned(shorter, longer) < 0);
    }

    @Test
    void malformedRowKeysAreRejected() {
        byte[] key = KeyLayout.encodeItemKey(PartitionHash.XXH64, 1, 0, s("abc"), s("x"));
        assertThrows(IllegalArgumentException.class, () -> KeyLayout.decodeItemKey(Arrays.copyOf(key, 21), Type.S, Type.S));
        assertThrows(IllegalArgumentException.class, () -> KeyLayout.decodeItemKey(Arrays.copyOf(key, 24), Type.S, Type.S));
        assertThrows(IllegalArgumentException.class, () -> KeyLayout.decodeItemKey(key, Type.S, null));
        assertThrows(IllegalArgumentException.class, () -> KeyLayout.decodeItemKey(key, Type.S, Type.N));
        byte[] index = KeyLayout.encodeIndexKey(PartitionHash.XXH64, 1, 1, s("g"), s("x"), s("item"), null);
        assertThrows(IllegalArgumentException.class,
                () -> KeyLayout.decodeIndexKey(PartitionHash.XXH64, Arrays.copyOf(index, index.length - 5), Type.S, Type.S, Type.S, null));
    }

    @Test
    void invalidArgumentsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> KeyLayout.encodeItemKey(PartitionHash.XXH64, -1, 0, s("a"), null));
        assertThrows(IllegalArgumentException.class, () -> KeyLayout.encodeItemKey(PartitionHash.XXH64, 1, -1, s("a"), null));
        assertThrows(IllegalArgumentException.class, () -> KeyLayout.tablePrefix(-1));
        assertThrows(IllegalArgumentException.class,
                () -> KeyLayout.encodeItemKey(PartitionHash.XXH64, 1, 0, new AttributeValue.B(new byte[65536]), null));
        assertThrows(IllegalArgumentException.class, () -> KeyLayout.encodeItemKey(PartitionHash.XXH64, 1, 0, AttributeValue.BOOL.TRUE, null));
        // The largest partition key the 2-byte length can describe still works.
        byte[] big = KeyLayout.encodeItemKey(PartitionHash.XXH64, 1, 0, new AttributeValue.B(new byte[65535]), null);
        assertEquals(65535, ((AttributeValue.B) KeyLayout.decodeItemKey(big, Type.B, null).partitionKey()).value().length);
    }

    @Test
    void successorAndPrefixUpperBound() {
        byte[] key = {1, 2, 3};
        assertArrayEquals(new byte[] {1, 2, 3, 0}, KeyLayout.successor(key));
        assertArrayEquals(new byte[] {1, 2, 4}, KeyLayout.prefixUpperBound(key));
        assertArrayEquals(new byte[] {1, 3}, KeyLayout.prefixUpperBound(new byte[] {1, 2, (byte) 0xFF, (byte) 0xFF}));
        assertNull(KeyLayout.prefixUpperBound(new byte[] {(byte) 0xFF}));
        // Exclusive start: the next row of the partition, never the start row itself.
        byte[] start = KeyLayout.encodeItemKey(PartitionHash.XXH64, 1, 0, s("p"), s("b"));
        byte[] next = KeyLayout.encodeItemKey(PartitionHash.XXH64, 1, 0, s("p"), s("b\u0000"));
        assertTrue(Arrays.compareUnsigned(KeyLayout.successor(start), start) > 0);
        assertTrue(Arrays.compareUnsigned(KeyLayout.successor(start), next) <= 0);
    }

    // ---- helpers

    private record Row(int partition, int index, AttributeValue sortKey, byte[] key) {}

    static AttributeValue s(String v) { return new AttributeValue.S(v); }

    static AttributeValue n(String v) { return new AttributeValue.N(DynamoNumber.parse(v)); }

    static AttributeValue b(int... bytes) {
        byte[] v = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) v[i] = (byte) bytes[i];
        return new AttributeValue.B(v);
    }

    static AttributeValue randomKey(Random r, Type type) {
        switch (type) {
            case S: {
                int[] pool = {'a', 'b', 0, 1, 0x7F, 0xE9, 0x800, 0xFFFF, 0x1F600};
                StringBuilder sb = new StringBuilder();
                int len = 1 + r.nextInt(6);
                for (int i = 0; i < len; i++) sb.appendCodePoint(pool[r.nextInt(pool.length)]);
                return s(sb.toString());
            }
            case N:
                return new AttributeValue.N(KeyEncodingTest.randomNumber(r));
            case B: {
                byte[] pool = {0, 1, (byte) 0x7F, (byte) 0x80, (byte) 0xFF};
                byte[] v = new byte[1 + r.nextInt(6)];
                for (int i = 0; i < v.length; i++) v[i] = pool[r.nextInt(pool.length)];
                return new AttributeValue.B(v);
            }
            default:
                throw new IllegalArgumentException(type.toString());
        }
    }

    private static List<AttributeValue> distinct(List<AttributeValue> values) {
        Set<ByteBuffer> seen = new HashSet<>();
        List<AttributeValue> out = new ArrayList<>();
        for (AttributeValue v : values) {
            if (seen.add(ByteBuffer.wrap(KeyEncoding.encode(v)))) out.add(v);
        }
        return out;
    }

    /** DynamoDB's order of two key values of one type, computed without the encodings. */
    private static int compareDynamo(AttributeValue a, AttributeValue b) {
        if (a instanceof AttributeValue.N x && b instanceof AttributeValue.N y) {
            return x.value().bigDecimal().compareTo(y.value().bigDecimal());
        }
        if (a instanceof AttributeValue.S x && b instanceof AttributeValue.S y) {
            return Arrays.compare(x.value().codePoints().toArray(), y.value().codePoints().toArray());
        }
        return UNSIGNED.compare(((AttributeValue.B) a).value(), ((AttributeValue.B) b).value());
    }

    /** Key layout 2: an index entry carries the table key's hash, which orders equal index keys. */
    @Test
    void layoutTwoIndexKeysDecodeBackAndOrderEqualIndexKeysByTheTableKeysHash() {
        AttributeValue ipk = new AttributeValue.S("C");
        AttributeValue isk = new AttributeValue.N(DynamoNumber.of(5));
        List<byte[]> entries = new ArrayList<>();
        for (String[] k : new String[][] {{"a", "a"}, {"b", "b"}, {"c", "e"}, {"c", "d"}, {"d", "a"}, {"e", "a"}}) {
            AttributeValue bpk = new AttributeValue.S(k[0]);
            AttributeValue bsk = new AttributeValue.S(k[1]);
            byte[] key = KeyLayout.encodeIndexKey(PartitionHash.DYNAMODB, 3, 1, ipk, isk, bpk, bsk);
            assertEquals(new DecodedIndexKey(3, 1, PartitionHash.DYNAMODB.of(ipk), ipk, isk, bpk, bsk),
                    KeyLayout.decodeIndexKey(PartitionHash.DYNAMODB, key, Type.S, Type.N, Type.S, Type.S));
            assertArrayEquals(key, KeyLayout.encodeIndexEntryKey(PartitionHash.DYNAMODB, 3, 1, List.of(ipk), List.of(isk),
                    bpk, bsk));
            entries.add(key);
        }
        entries.sort(Arrays::compareUnsigned);
        List<String> order = new ArrayList<>();
        for (byte[] e : entries) {
            DecodedIndexKey d = KeyLayout.decodeIndexKey(PartitionHash.DYNAMODB, e, Type.S, Type.N, Type.S, Type.S);
            order.add(((AttributeValue.S) d.basePartitionKey()).value() + ((AttributeValue.S) d.baseSortKey()).value());
        }
        assertEquals(List.of("bb", "aa", "ce", "ea", "da", "cd"), order); // dynalite's GSI query test, against DynamoDB
    }
}

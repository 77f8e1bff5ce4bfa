package io.stator.server.api;

import static io.stator.server.testing.Attrs.item;
import static io.stator.server.testing.Attrs.n;
import static io.stator.server.testing.Attrs.s;
import static io.stator.server.testing.KeyShape.PARTITION_KEY;
import static io.stator.server.testing.KeyShape.SORT_KEY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.stator.server.testing.KeyOrder;
import io.stator.server.testing.KeyShape;
import io.stator.server.testing.ParallelWrites;
import io.stator.server.testing.SharedServer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * Property tests of DynamoDB's sort-key order on random keys: Query returns a partition in the
 * order of a plain reference sort ({@link KeyOrder}: numbers by value, strings by code point,
 * binaries by unsigned byte), forwards, backwards and page by page, and its sort-key conditions
 * select exactly what the reference says. The random values aim at the edges of each encoding:
 * numbers of 38 digits, at both ends of the exponent range, negative and zero; strings beyond
 * U+FFFF next to U+E000..U+FFFF (UTF-8 and UTF-16 order them differently); bytes at 0x00, 0x7F,
 * 0x80 and 0xFF, and values that are prefixes of others. Each seed is a new random partition.
 */
class SortOrderTest {

    private static final int KEYS = 300;

    @RegisterExtension
    static final SharedServer server = new SharedServer();

    static Stream<Arguments> typesAndSeeds() {
        return Stream.of(ScalarAttributeType.N, ScalarAttributeType.S, ScalarAttributeType.B)
                .flatMap(type -> Stream.of(1L, 2L).map(seed -> Arguments.of(type, seed)));
    }

    // ---- random keys ------------------------------------------------------------------------

    private static AttributeValue randomValue(ScalarAttributeType type, Random random) {
        return switch (type) {
            case N -> n(randomNumber(random).toString());
            case S -> s(randomString(random));
            case B -> AttributeValue.fromB(SdkBytes.fromByteArray(randomBytes(random)));
            default -> throw new IllegalArgumentException(type.toString());
        };
    }

    /** Numbers across DynamoDB's whole range: 1 to 38 digits, exponents -130 to 125, either sign, and zero. */
    static BigDecimal randomNumber(Random random) {
        int kind = random.nextInt(6);
        if (kind == 0) return BigDecimal.ZERO;
        if (kind == 1) return BigDecimal.valueOf(random.nextInt(2001) - 1000, random.nextInt(3));
        int digits = kind == 2 ? 38 : 1 + random.nextInt(38);
        BigInteger unscaled = new BigInteger(digits * 4, random).mod(BigInteger.TEN.pow(digits));
        if (unscaled.signum() == 0) unscaled = BigInteger.ONE;
        // The exponent of the leading digit: anywhere from -130 to 125, or at either end.
        int leading = kind == 3 ? -130 + random.nextInt(5) : kind == 4 ? 121 + random.nextInt(5) : random.nextInt(256) - 130;
        int precision = unscaled.toString().length();
        BigDecimal value = new BigDecimal(unscaled, precision - 1 - leading);
        return random.nextBoolean() ? value : value.negate();
    }

    /** Strings of 1 to 6 code points from ranges whose UTF-8 lengths and UTF-16 forms differ. */
    static String randomString(Random random) {
        int[][] ranges = {{0x01, 0x7F}, {0x80, 0x7FF}, {0x800, 0xD7FF}, {0xE000, 0xFFFD}, {0x10000, 0x10FFFF},
                {'a', 'c'}};
        StringBuilder sb = new StringBuilder();
        int length = 1 + random.nextInt(6);
        for (int i = 0; i < length; i++) {
            int[] range = ranges[random.nextInt(ranges.length)];
            sb.appendCodePoint(range[0] + random.nextInt(range[1] - range[0] + 1));
        }
        return sb.toString();
    }

    /** 1 to 8 bytes, mostly at the edges of signedness. */
    static byte[] randomBytes(Random random) {
        int[] edges = {0x00, 0x01, 0x7F, 0x80, 0x81, 0xFE, 0xFF};
        byte[] b = new byte[1 + random.nextInt(8)];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) (random.nextBoolean() ? edges[random.nextInt(edges.length)] : random.nextInt(256));
        }
        return b;
    }

    /** A value that extends another (a longer string, more bytes), to sort right after it. */
    private static AttributeValue extended(AttributeValue v, Random random) {
        if (v.s() != null) return s(v.s() + randomString(random));
        if (v.b() != null) {
            byte[] b = v.b().asByteArray();
            byte[] longer = Arrays.copyOf(b, b.length + 1);
            longer[b.length] = (byte) random.nextInt(256);
            return AttributeValue.fromB(SdkBytes.fromByteArray(longer));
        }
        // One more digit, where there is room for it within 38.
        BigDecimal d = new BigDecimal(v.n()).stripTrailingZeros();
        return d.precision() >= 38 ? v : n(d.add(d.ulp().movePointLeft(1)).toString());
    }

    /** Distinct random sort keys (distinct in DynamoDB's eyes: 1.0 and 1 are one key), in reference order. */
    private static List<AttributeValue> randomKeys(ScalarAttributeType type, Random random) {
        TreeSet<AttributeValue> keys = new TreeSet<>(KeyOrder.VALUES);
        while (keys.size() < KEYS) {
            AttributeValue v = randomValue(type, random);
            keys.add(v);
            if (random.nextInt(5) == 0) keys.add(extended(v, random));
        }
        return new ArrayList<>(keys);
    }

    // ---- the partition ----------------------------------------------------------------------

    private record Partition(String table, AttributeValue partitionKey, List<AttributeValue> sortKeys) {}

    /** The partitions stored so far, by type and seed: both properties read the same data. */
    private static final Map<String, Partition> stored = new ConcurrentHashMap<>();

    private static Partition partition(ScalarAttributeType type, long seed) {
        return stored.computeIfAbsent(type + "/" + seed, k -> store(type, seed));
    }

    private static Partition store(ScalarAttributeType type, long seed) {
        KeyShape shape = new KeyShape(ScalarAttributeType.S, type);
        String table = shape.createTable(server.client());
        List<AttributeValue> sortKeys = randomKeys(type, new Random(seed));
        AttributeValue pk = s("partition-" + seed);
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (AttributeValue sk : sortKeys) items.add(item(PARTITION_KEY, pk, SORT_KEY, sk));
        Collections.shuffle(items, new Random(seed));
        ParallelWrites.putAll(server.endpoint(), table, items);
        return new Partition(table, pk, sortKeys);
    }

    private static List<AttributeValue> sortKeysOf(Partition p, Consumer<QueryRequest.Builder> request) {
        List<AttributeValue> sortKeys = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse r = server.client().query(b -> {
                b.tableName(p.table()).exclusiveStartKey(from);
                request.accept(b);
            });
            r.items().forEach(item -> sortKeys.add(item.get(SORT_KEY)));
            start = r.hasLastEvaluatedKey() ? r.lastEvaluatedKey() : null;
        } while (start != null);
        return sortKeys;
    }

    /** Equal as keys (a number may come back written differently from how it was sent). */
    private static void assertSameKeys(List<AttributeValue> expected, List<AttributeValue> actual, String context) {
        assertEquals(expected.size(), actual.size(), context + ": how many");
        for (int i = 0; i < expected.size(); i++) {
            int at = i;
            assertEquals(0, KeyOrder.compare(expected.get(i), actual.get(i)),
                    () -> context + ": at " + at + " expected " + expected.get(at) + " but was " + actual.get(at));
        }
    }

    // ---- the properties ---------------------------------------------------------------------

    @ParameterizedTest(name = "{0}, seed {1}")
    @MethodSource("typesAndSeeds")
    void queryReturnsRandomSortKeysInDynamoDbsOrder(ScalarAttributeType type, long seed) {
        Partition p = partition(type, seed);
        Consumer<QueryRequest.Builder> all = b -> b.keyConditionExpression("pk = :pk")
                .expressionAttributeValues(item(":pk", p.partitionKey()));
        List<AttributeValue> reversed = new ArrayList<>(p.sortKeys());
        Collections.reverse(reversed);

        assertSameKeys(p.sortKeys(), sortKeysOf(p, all), "forwards");
        assertSameKeys(reversed, sortKeysOf(p, all.andThen(b -> b.scanIndexForward(false))), "backwards");
        assertSameKeys(p.sortKeys(), sortKeysOf(p, all.andThen(b -> b.limit(17))), "pages of 17");
        assertSameKeys(reversed, sortKeysOf(p, all.andThen(b -> b.limit(17).scanIndexForward(false))), "pages backwards");
        if (type == ScalarAttributeType.S) assertTrue(hasUtf16Inversion(p.sortKeys()), "the data tells UTF-8 from UTF-16");
    }

    /** Whether two neighbours of the list sort the other way round as Java (UTF-16) strings. */
    private static boolean hasUtf16Inversion(List<AttributeValue> sorted) {
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i - 1).s().compareTo(sorted.get(i).s()) > 0) return true;
        }
        return false;
    }

    @ParameterizedTest(name = "{0}, seed {1}")
    @MethodSource("typesAndSeeds")
    void sortKeyConditionsOnRandomBoundsSelectWhatTheReferenceOrderSelects(ScalarAttributeType type, long seed) {
        Partition p = partition(type, seed);
        Random random = new Random(seed);
        List<AttributeValue> keys = p.sortKeys();
        for (int round = 0; round < 10; round++) {
            // Bounds that are keys of the partition, or values between them.
            AttributeValue x = random.nextBoolean() ? keys.get(random.nextInt(keys.size())) : randomValue(type, random);
            AttributeValue y = random.nextBoolean() ? keys.get(random.nextInt(keys.size())) : randomValue(type, random);
            AttributeValue lo = KeyOrder.compare(x, y) <= 0 ? x : y;
            AttributeValue hi = lo == x ? y : x;
            check(p, "sk < :v", x, null, v -> KeyOrder.compare(v, x) < 0);
            check(p, "sk <= :v", x, null, v -> KeyOrder.compare(v, x) <= 0);
            check(p, "sk > :v", x, null, v -> KeyOrder.compare(v, x) > 0);
            check(p, "sk >= :v", x, null, v -> KeyOrder.compare(v, x) >= 0);
            check(p, "sk = :v", x, null, v -> KeyOrder.compare(v, x) == 0);
            check(p, "sk BETWEEN :v AND :w", lo, hi, v -> KeyOrder.compare(v, lo) >= 0 && KeyOrder.compare(v, hi) <= 0);
            if (type != ScalarAttributeType.N) {
                AttributeValue prefix = prefixOf(keys.get(random.nextInt(keys.size())), random);
                check(p, "begins_with(sk, :v)", prefix, null, v -> startsWith(v, prefix));
            }
        }
    }

    private static void check(Partition p, String sortKeyCondition, AttributeValue v, AttributeValue w,
                              Predicate<AttributeValue> selects) {
        Map<String, AttributeValue> values = item(":pk", p.partitionKey(), ":v", v);
        if (w != null) values.put(":w", w);
        List<AttributeValue> expected = p.sortKeys().stream().filter(selects).toList();
        List<AttributeValue> actual = sortKeysOf(p, b -> b.keyConditionExpression("pk = :pk AND " + sortKeyCondition)
                .expressionAttributeValues(values));
        assertSameKeys(expected, actual, sortKeyCondition + " with " + v + (w == null ? "" : ", " + w));
    }

    /** A prefix of the value (whole code points of a string; bytes of a binary). */
    private static AttributeValue prefixOf(AttributeValue v, Random random) {
        if (v.s() != null) {
            int[] codePoints = v.s().codePoints().toArray();
            return s(new String(codePoints, 0, 1 + random.nextInt(codePoints.length)));
        }
        byte[] b = v.b().asByteArray();
        return AttributeValue.fromB(SdkBytes.fromByteArray(Arrays.copyOf(b, 1 + random.nextInt(b.length))));
    }

    private static boolean startsWith(AttributeValue v, AttributeValue prefix) {
        if (v.s() != null) return v.s().startsWith(prefix.s());
        byte[] b = v.b().asByteArray();
        byte[] p = prefix.b().asByteArray();
        return b.length >= p.length && Arrays.equals(b, 0, p.length, p, 0, p.length);
    }
}

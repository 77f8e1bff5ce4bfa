package io.stator.server.testing;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The size of an item by DynamoDB's rules, computed by the tests themselves so that they check
 * the server against the rules rather than against its own arithmetic.
 *
 * <p>Developer guide, "DynamoDB item sizes and formats": an item is the sum of its attribute
 * names' UTF-8 lengths and its values' sizes; S is its UTF-8 length, B its raw length, BOOL and
 * NULL 1 byte, a set the sum of its members, M and L 3 bytes plus 1 byte per element plus the
 * elements (a map element also its name). N is "approximately" 1 byte per two significant digits
 * plus 1; the exact rule is dynalite's, whose tests pass against DynamoDB at the 400 KB edge with
 * numbers of 1 to 38 digits: {@code 1 + ceil(digits / 2)}, plus 1 when the digit count and the
 * exponent are both even, plus 1 when negative, and zero is 1 byte.
 */
public final class DynamoSize {

    private DynamoSize() {}

    public static long of(Map<String, AttributeValue> item) {
        long size = 0;
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) size += utf8(e.getKey()) + of(e.getValue());
        return size;
    }

    public static long of(AttributeValue v) {
        if (v.s() != null) return utf8(v.s());
        if (v.n() != null) return number(v.n());
        if (v.b() != null) return v.b().asByteArray().length;
        if (v.bool() != null || v.nul() != null) return 1;
        if (v.hasSs()) return v.ss().stream().mapToLong(DynamoSize::utf8).sum();
        if (v.hasNs()) return v.ns().stream().mapToLong(DynamoSize::number).sum();
        if (v.hasBs()) return v.bs().stream().mapToLong(b -> b.asByteArray().length).sum();
        if (v.hasM()) return 3 + v.m().size() + of(v.m());
        if (v.hasL()) return 3 + v.l().stream().mapToLong(e -> 1 + of(e)).sum();
        throw new IllegalArgumentException("attribute value without a type: " + v);
    }

    /** A Query or Scan page ends once the items read reach this many {@link #pageBytes} (1 MiB). */
    public static final long PAGE_BYTES = 1024 * 1024;

    /**
     * How much of a Query or Scan page's 1 MiB an item uses up. DynamoDB measures pages in an
     * internal format, not by the documented item size: every attribute name counts one byte
     * however long, strings carry a 1 to 3 byte length, and the sort key counts apart:
     * {@code 2 + S + (1 + floor((1 + S) / 3072)) * (18 + R)}, R the sort key value's size, S the
     * sum over the other attributes of 1 + their stored size. This is dynalite's formula
     * (db/index.js), which reproduces to the byte the page ends recorded against DynamoDB (see
     * PaginationTest); written again here so that tests do not check the server against itself.
     */
    public static long pageBytes(Map<String, AttributeValue> item, String sortKeyName) {
        long s = 0;
        long r = 0;
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            if (e.getKey().equals(sortKeyName)) r = of(e.getValue());
            else s += 1 + stored(e.getValue());
        }
        return 2 + s + (1 + (1 + s) / 3072) * (18 + r);
    }

    private static long stored(AttributeValue v) {
        if (v.s() != null) {
            long length = utf8(v.s());
            return length + (length < 128 ? 1 : length < 16384 ? 2 : 3);
        }
        if (v.n() != null || v.b() != null) return of(v) + 1;
        if (v.bool() != null) return 1;
        if (v.nul() != null) return 0;
        if (v.hasSs()) return of(v) + v.ss().size() + 1;
        if (v.hasNs()) return of(v) + v.ns().size() + 1;
        if (v.hasBs()) return of(v) + v.bs().size() + 1;
        if (v.hasL()) return 3 + v.l().stream().mapToLong(e -> 1 + stored(e)).sum();
        if (v.hasM()) return 3 + v.m().size() + v.m().values().stream().mapToLong(e -> stored(e) + 1).sum();
        throw new IllegalArgumentException("attribute value without a type: " + v);
    }

    /**
     * The item with one more string attribute, {@code fillerName}, of repetitions of
     * {@code fill} (one character, of one to four UTF-8 bytes, and 'a' to make up any rest), sized
     * to make the whole item exactly {@code targetBytes}.
     */
    public static Map<String, AttributeValue> padded(Map<String, AttributeValue> item, String fillerName,
                                                     String fill, long targetBytes) {
        long room = targetBytes - of(item) - utf8(fillerName);
        long fillBytes = utf8(fill);
        if (room < 0) throw new IllegalArgumentException("the item is already larger than " + targetBytes);
        String filler = fill.repeat((int) (room / fillBytes)) + "a".repeat((int) (room % fillBytes));
        Map<String, AttributeValue> result = new LinkedHashMap<>(item);
        result.put(fillerName, AttributeValue.fromS(filler));
        if (of(result) != targetBytes) throw new AssertionError("padding went wrong: " + of(result));
        return result;
    }

    /** As {@link #padded(Map, String, String, long)}, with ASCII filler. */
    public static Map<String, AttributeValue> padded(Map<String, AttributeValue> item, long targetBytes) {
        return padded(item, "filler", "a", targetBytes);
    }

    public static long utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    static long number(String text) {
        BigDecimal d = new BigDecimal(text);
        if (d.signum() == 0) return 1;
        d = d.stripTrailingZeros();
        int digits = d.precision();
        int exponent = digits - 1 - d.scale();
        long size = 1 + (digits + 1) / 2;
        if (digits % 2 == 0 && exponent % 2 == 0) size++;
        if (d.signum() < 0) size++;
        return size;
    }
}

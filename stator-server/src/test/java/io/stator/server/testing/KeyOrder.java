package io.stator.server.testing;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * DynamoDB's order of key values, written the simplest way so that tests can check the server's
 * order against it: N by numeric value ({@link BigDecimal#compareTo}), S by Unicode code points
 * (the order of UTF-8 bytes, which is not Java's UTF-16 {@code String.compareTo} once characters
 * beyond U+FFFF meet U+E000..U+FFFF), B by unsigned bytes.
 */
public final class KeyOrder {

    /** Key values of one type, in DynamoDB's order. */
    public static final Comparator<AttributeValue> VALUES = KeyOrder::compare;

    private KeyOrder() {}

    public static int compare(AttributeValue a, AttributeValue b) {
        if (a.n() != null) return new BigDecimal(a.n()).compareTo(new BigDecimal(b.n()));
        if (a.s() != null) return Arrays.compare(a.s().codePoints().toArray(), b.s().codePoints().toArray());
        return Arrays.compareUnsigned(a.b().asByteArray(), b.b().asByteArray());
    }

    /** Items in the order of one of their attributes (a sort key). */
    public static Comparator<Map<String, AttributeValue>> byAttribute(String name) {
        return Comparator.comparing(item -> item.get(name), VALUES);
    }
}

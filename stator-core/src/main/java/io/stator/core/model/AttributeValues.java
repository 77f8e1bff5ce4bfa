package io.stator.core.model;

import io.stator.core.error.DynamoDbException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds attribute values from client input with DynamoDB's checks and messages: sets must be
 * non-empty and hold no duplicates (numbers compare by value, so "1" and "1.0" are duplicates),
 * NULL must be true. The odd spacing and wording of some messages is DynamoDB's own.
 */
public final class AttributeValues {

    private AttributeValues() {}

    public static AttributeValue.SS stringSet(List<String> values) {
        if (values.isEmpty()) {
            throw DynamoDbException.invalidParameter("An string set  may not be empty");
        }
        if (values.size() > 1 && new HashSet<>(values).size() != values.size()) {
            throw DynamoDbException.invalidParameter(
                    "Input collection " + listText(values) + " contains duplicates.");
        }
        return new AttributeValue.SS(List.copyOf(values));
    }

    /** Parses each number as DynamoDB does; the first invalid one is reported. */
    public static AttributeValue.NS numberSet(List<String> texts) {
        if (texts.isEmpty()) {
            throw DynamoDbException.invalidParameter("An number set  may not be empty");
        }
        List<DynamoNumber> numbers = new ArrayList<>(texts.size());
        for (String text : texts) numbers.add(DynamoNumber.parse(text));
        if (numbers.size() > 1 && new HashSet<>(numbers).size() != numbers.size()) {
            throw DynamoDbException.validation("Input collection contains duplicates");
        }
        return new AttributeValue.NS(List.copyOf(numbers));
    }

    public static AttributeValue.BS binarySet(List<byte[]> values) {
        if (values.isEmpty()) {
            throw DynamoDbException.invalidParameter("Binary sets should not be empty");
        }
        if (values.size() > 1) {
            Set<java.nio.ByteBuffer> seen = new HashSet<>();
            for (byte[] v : values) {
                if (!seen.add(java.nio.ByteBuffer.wrap(v))) {
                    List<String> shown = new ArrayList<>(values.size());
                    for (byte[] b : values) shown.add(Base64.getEncoder().encodeToString(b));
                    throw DynamoDbException.invalidParameter(
                            "Input collection " + listText(shown) + "of type BS contains duplicates.");
                }
            }
        }
        return new AttributeValue.BS(List.copyOf(values));
    }

    public static AttributeValue.NULL nullValue(boolean value) {
        if (!value) {
            throw DynamoDbException.invalidParameter("Null attribute value types must have the value of true");
        }
        return AttributeValue.NULL.INSTANCE;
    }

    public static DynamoDbException empty() {
        return DynamoDbException.validation(
                "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
    }

    public static DynamoDbException moreThanOneType() {
        return DynamoDbException.validation(
                "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes");
    }

    private static String listText(List<String> values) {
        return "[" + String.join(", ", values) + "]";
    }
}

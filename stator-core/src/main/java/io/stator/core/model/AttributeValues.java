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
 * NULL must be true, and no element of a set, a list or a map may be a JSON null. The odd spacing
 * and wording of some messages is DynamoDB's own.
 *
 * <p>The texts for a null element are DynamoDB Local's, AWS's own emulator, whose
 * {@code InputConverter} refuses a null list element ({@code ITEM_CONTAINS_NULL_ATTRVALUE}),
 * a null map member (the same, with "&lt;name&gt; is null" after a colon), a null string-set member
 * ("An string set may not have a null string as a member"), a null number-set member (its
 * non-numeric text) and a null binary-set member (the first again); DynamoDB itself answered an
 * SDK's list with a null element with the first text (aws/aws-sdk-java#2103).
 */
public final class AttributeValues {

    private AttributeValues() {}

    /** @param values the members as sent, a JSON null as null: refused after the duplicates are */
    public static AttributeValue.SS stringSet(List<String> values) {
        if (values.isEmpty()) {
            throw DynamoDbException.invalidParameter("An string set  may not be empty");
        }
        if (values.size() > 1 && new HashSet<>(values).size() != values.size()) {
            throw DynamoDbException.invalidParameter(
                    "Input collection " + listText(values) + " contains duplicates.");
        }
        if (values.contains(null)) {
            throw DynamoDbException.invalidParameter("An string set may not have a null string as a member");
        }
        return new AttributeValue.SS(List.copyOf(values));
    }

    /**
     * Parses each number as DynamoDB does; the first invalid one is reported (a JSON null, as null,
     * is not a number).
     */
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
                if (!seen.add(v == null ? null : java.nio.ByteBuffer.wrap(v))) {
                    List<String> shown = new ArrayList<>(values.size());
                    for (byte[] b : values) shown.add(b == null ? null : Base64.getEncoder().encodeToString(b));
                    throw DynamoDbException.invalidParameter(
                            "Input collection " + listText(shown) + "of type BS contains duplicates.");
                }
            }
        }
        if (values.contains(null)) throw nullElement();
        return new AttributeValue.BS(List.copyOf(values));
    }

    public static AttributeValue.NULL nullValue(boolean value) {
        if (!value) {
            throw DynamoDbException.invalidParameter("Null attribute value types must have the value of true");
        }
        return AttributeValue.NULL.INSTANCE;
    }

    /** A JSON null as an element of a list or a binary set. */
    public static DynamoDbException nullElement() {
        return DynamoDbException.validation("The supplied Item contains a null AttributeValue");
    }

    /** A JSON null as the value of member {@code name} of a map. */
    public static DynamoDbException nullMember(String name) {
        return DynamoDbException.validation("The supplied Item contains a null AttributeValue: " + name + " is null");
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

package io.stator.engine.table;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.table.TableSpecs.Tag;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * DynamoDB's rules for tags (TagResource, UntagResource, CreateTable's Tags): keys of 1 to 128
 * and values of 0 to 256 Unicode letters, digits, spaces and {@code + - = . _ : / @}; no key
 * starting with "aws:"; at most 50 tags on a resource. DynamoDB checks these itself, with its
 * own messages, rather than as model constraints.
 */
public final class TagRules {

    static final int MAX_TAGS_PER_RESOURCE = 50;
    private static final int MAX_KEY_LENGTH = 128;
    private static final int MAX_VALUE_LENGTH = 256;
    private static final Pattern ALLOWED = Pattern.compile("[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*");

    private TagRules() {}

    /** Checks a Tags list and returns it as an ordered map. */
    public static Map<String, String> parseTags(List<Tag> tags) {
        Map<String, String> result = new LinkedHashMap<>();
        for (Tag tag : tags) {
            String key = tag.key();
            String value = tag.value();
            checkKey(key);
            if (value == null || value.length() > MAX_VALUE_LENGTH || !ALLOWED.matcher(value).matches()) {
                throw DynamoDbException.validation("The Tag Value provided is invalid, Value: " + value);
            }
            if (result.containsKey(key)) {
                throw DynamoDbException.validation(
                        "Duplicate Tag Keys provided as input: Duplicate Tag Key found " + key);
            }
            result.put(key, value);
        }
        WriteIsolation.checkTags(result);
        return result;
    }

    public static void checkTagKeys(List<String> keys) {
        Set<String> seen = new HashSet<>();
        for (String key : keys) {
            checkKey(key);
            if (!seen.add(key)) {
                throw DynamoDbException.validation(
                        "Duplicate Tag Keys provided as input: Duplicate Tag Key found " + key);
            }
        }
    }

    private static void checkKey(String key) {
        if (key == null || key.isEmpty() || key.length() > MAX_KEY_LENGTH || !ALLOWED.matcher(key).matches()) {
            throw DynamoDbException.validation("The Tag Key provided is invalid, Key: " + key);
        }
        if (key.toLowerCase(Locale.ROOT).startsWith("aws:")) {
            throw DynamoDbException.validation("Tag Key cannot be prefixed with aws:, Key: " + key);
        }
    }

    public static void checkCount(int count) {
        if (count > MAX_TAGS_PER_RESOURCE) {
            throw DynamoDbException.validation("Number of Tags exceed the current limit for the provided ResourceArn");
        }
    }
}

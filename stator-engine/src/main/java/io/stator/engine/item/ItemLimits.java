package io.stator.engine.item;

import io.stator.core.error.DynamoDbException;
import io.stator.core.item.ItemSize;
import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/**
 * DynamoDB's limits on an item: 400 KB by its size rules ({@link ItemSize}), 32 levels of
 * nesting. A front end checks an item it was given where DynamoDB checks it (PutItem checks
 * nesting, then ReturnValues, then size); an update checks the item it produces.
 */
public final class ItemLimits {

    /**
     * Documents nest 32 levels deep, the attribute itself being level 1: an attribute holding
     * 31 maps (or lists) around a string is the deepest DynamoDB takes, one more map is refused
     * (probed against DynamoDB, docs/dynamodb/dynamodb-errors.md section 9.2).
     */
    public static final int MAX_NESTING_LEVELS = 32;

    private ItemLimits() {}

    public static void checkItemSize(Map<String, AttributeValue> item) {
        if (ItemSize.of(item) > ItemSize.MAX_ITEM_SIZE) {
            throw DynamoDbException.validation("Item size has exceeded the maximum allowed size");
        }
    }

    /** UpdateItem's wording of the same limit, checked on the item the update produces. */
    public static void checkUpdatedItemSize(Map<String, AttributeValue> item) {
        if (ItemSize.of(item) > ItemSize.MAX_ITEM_SIZE) {
            throw DynamoDbException.validation("Item size to update has exceeded the maximum allowed size");
        }
    }

    public static void checkNesting(Map<String, AttributeValue> item) {
        for (AttributeValue value : item.values()) {
            if (exceedsNestingLevels(value, 1)) {
                throw DynamoDbException.validation("Nesting Levels have exceeded supported limits: "
                        + "Attributes in the item have nested levels beyond supported limit");
            }
        }
    }

    /**
     * True if the value, found at {@code level}, or anything inside it lies deeper than
     * {@link #MAX_NESTING_LEVELS}. Stops descending at the limit, so a hostile request cannot
     * make this recurse further than the limit allows.
     */
    private static boolean exceedsNestingLevels(AttributeValue value, int level) {
        if (level > MAX_NESTING_LEVELS) return true;
        Iterable<AttributeValue> members = switch (value) {
            case AttributeValue.M m -> m.values().values();
            case AttributeValue.L l -> l.values();
            default -> List.of();
        };
        for (AttributeValue member : members) {
            if (exceedsNestingLevels(member, level + 1)) return true;
        }
        return false;
    }
}

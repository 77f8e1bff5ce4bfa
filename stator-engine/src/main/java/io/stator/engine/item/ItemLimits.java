package io.stator.engine.item;

import io.stator.core.error.DynamoDbException;
import io.stator.core.item.ItemSize;
import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/**
 * DynamoDB's limits on an item: 400 KB by its size rules ({@link ItemSize}), 32 levels of
 * nesting. Every whole item a front end hands the write path passes here: {@code ItemWrite.put}
 * takes a {@link LimitedItem}, which only these checks make (or checks a plain map itself). A
 * front end whose order of checks puts another between the two (PutItem checks nesting, then
 * ReturnValues, then size) calls {@link #checkNesting} at its point and {@link Nested#checkSize}
 * at the next, and no limit is checked twice. An update checks the item it produces.
 */
public final class ItemLimits {

    /**
     * Documents nest 32 levels deep, the attribute itself being level 1: an attribute holding
     * 31 maps (or lists) around a string is the deepest DynamoDB takes, one more map is refused
     * (probed against DynamoDB, docs/dynamodb/dynamodb-errors.md section 9.2).
     */
    public static final int MAX_NESTING_LEVELS = 32;

    private ItemLimits() {}

    /** Both limits, nesting first (the order of PutItem, BatchWriteItem and PartiQL's INSERT). */
    public static LimitedItem check(Map<String, AttributeValue> item) {
        return checkNesting(item).checkSize();
    }

    /**
     * An item read back from storage (a backup's copy being restored): it was held to the limits
     * when it was written, and is restored as it was.
     */
    public static LimitedItem stored(Map<String, AttributeValue> item) {
        return new LimitedItem(item);
    }

    /** An item whose nesting is within the limit, its size still to check. */
    public static final class Nested {
        private final Map<String, AttributeValue> item;

        private Nested(Map<String, AttributeValue> item) {
            this.item = item;
        }

        public LimitedItem checkSize() {
            if (ItemSize.of(item) > ItemSize.MAX_ITEM_SIZE) {
                throw DynamoDbException.validation("Item size has exceeded the maximum allowed size");
            }
            return new LimitedItem(item);
        }
    }

    /** UpdateItem's wording of the same limit, checked on the item the update produces. */
    public static void checkUpdatedItemSize(Map<String, AttributeValue> item) {
        if (ItemSize.of(item) > ItemSize.MAX_ITEM_SIZE) {
            throw DynamoDbException.validation("Item size to update has exceeded the maximum allowed size");
        }
    }

    public static Nested checkNesting(Map<String, AttributeValue> item) {
        for (AttributeValue value : item.values()) {
            if (exceedsNestingLevels(value, 1)) {
                throw DynamoDbException.validation("Nesting Levels have exceeded supported limits: "
                        + "Attributes in the item have nested levels beyond supported limit");
            }
        }
        return new Nested(item);
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

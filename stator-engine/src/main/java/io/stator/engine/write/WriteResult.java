package io.stator.engine.write;

import io.stator.core.model.AttributeValue;
import io.stator.engine.capacity.ConsumedCapacity;
import java.util.Map;

/**
 * The outcome of one item's write: the item before and after it, what it consumed, and its item
 * collection's size.
 *
 * @param itemCollectionSize the size of the item's collection after the write, on a table with a
 *                           local secondary index; -1 otherwise (and for a write that changed nothing)
 */
public record WriteResult(ItemWrite write, Map<String, AttributeValue> oldItem, Map<String, AttributeValue> newItem,
                          ConsumedCapacity consumed, long itemCollectionSize) {

    /** The attributes the write's ReturnValues asks for, or null for none. */
    public Map<String, AttributeValue> returnedAttributes() {
        return write.returnValues().select(oldItem, newItem, write.updatedPaths());
    }
}

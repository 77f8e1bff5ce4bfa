package io.stator.engine.write;

import io.stator.core.expression.Path;
import io.stator.core.expression.Projector;
import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/**
 * What a write returns of its item (DynamoDB's ReturnValues): nothing, the item before or after
 * it, or only the attributes an update touched, as they were before or after it.
 */
public enum ReturnValues {
    NONE, ALL_OLD, UPDATED_OLD, ALL_NEW, UPDATED_NEW;

    /**
     * The attributes to return, or null for none.
     *
     * @param updatedPaths the paths an update touched (UPDATED_OLD and UPDATED_NEW return those)
     */
    Map<String, AttributeValue> select(Map<String, AttributeValue> oldItem, Map<String, AttributeValue> newItem,
                                       List<Path> updatedPaths) {
        return switch (this) {
            case NONE -> null;
            case ALL_OLD -> oldItem;
            case ALL_NEW -> newItem;
            case UPDATED_OLD -> oldItem == null ? null : Projector.project(oldItem, updatedPaths);
            case UPDATED_NEW -> newItem == null ? null : Projector.project(newItem, updatedPaths);
        };
    }
}

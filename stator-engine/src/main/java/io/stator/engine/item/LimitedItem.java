package io.stator.engine.item;

import io.stator.core.model.AttributeValue;
import java.util.Map;

/**
 * A whole item within DynamoDB's limits on size and nesting: made only by {@link ItemLimits},
 * so that a write path taking one knows the limits were checked, once, by whichever front end
 * built it.
 */
public final class LimitedItem {

    private final Map<String, AttributeValue> values;

    LimitedItem(Map<String, AttributeValue> values) {
        this.values = values;
    }

    public Map<String, AttributeValue> values() {
        return values;
    }
}

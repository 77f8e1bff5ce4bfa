package io.stator.core.expression;

import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/** Reading a document path in an item. */
public final class Paths {

    private Paths() {}

    /** The value at the path, or null when any step is missing or of the wrong kind. */
    public static AttributeValue get(Map<String, AttributeValue> item, Path path) {
        List<Path.Element> elements = path.elements();
        AttributeValue v = item.get(((Path.Name) elements.get(0)).name());
        for (int i = 1; i < elements.size() && v != null; i++) {
            v = child(v, elements.get(i));
        }
        return v;
    }

    /** One step down: a map member or a list element; null when absent or of the wrong kind. */
    static AttributeValue child(AttributeValue container, Path.Element step) {
        if (step instanceof Path.Name n) {
            return container instanceof AttributeValue.M m ? m.values().get(n.name()) : null;
        }
        int index = ((Path.Index) step).index();
        if (container instanceof AttributeValue.L l) {
            return index < l.values().size() ? l.values().get(index) : null;
        }
        return null;
    }
}

package io.stator.engine.partiql;

import io.stator.core.expression.Path;
import io.stator.core.expression.Paths;
import io.stator.core.model.AttributeValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A projected item as SELECT returns it: an attribute named by a nested path of names comes back
 * under the path's last name ({@code SELECT m.nested} answers {@code {"nested": ...}}), as
 * recorded from DynamoDB by dynamodb-conformance. Top-level paths, and paths through a list index
 * (whose naming is not recorded), are left as the projection made them.
 */
public final class SelectedNames {

    private SelectedNames() {}

    public static Map<String, AttributeValue> named(Map<String, AttributeValue> item, List<Path> projection) {
        if (item == null || projection == null || projection.stream().noneMatch(SelectedNames::renamed)) return item;
        Map<String, AttributeValue> named = item;
        for (Path p : projection) {
            if (renamed(p)) named = without(named, p.elements(), 0);
        }
        named = new LinkedHashMap<>(named);
        for (Path p : projection) {
            if (!renamed(p)) continue;
            AttributeValue v = Paths.get(item, p);
            if (v != null) named.put(((Path.Name) p.last()).name(), v);
        }
        return named;
    }

    private static boolean renamed(Path p) {
        return !p.isTopLevel() && p.elements().stream().allMatch(e -> e instanceof Path.Name);
    }

    /** The item without the value at a path of names, and without the maps that leaves empty. */
    private static Map<String, AttributeValue> without(Map<String, AttributeValue> item, List<Path.Element> path, int at) {
        String name = ((Path.Name) path.get(at)).name();
        Map<String, AttributeValue> copy = new LinkedHashMap<>(item);
        if (at == path.size() - 1) {
            copy.remove(name);
        } else if (copy.get(name) instanceof AttributeValue.M m) {
            Map<String, AttributeValue> rest = without(m.values(), path, at + 1);
            if (rest.isEmpty()) copy.remove(name);
            else copy.put(name, new AttributeValue.M(rest));
        }
        return copy;
    }
}

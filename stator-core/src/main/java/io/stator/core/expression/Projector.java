package io.stator.core.expression;

import io.stator.core.model.AttributeValue;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Projects an item onto document paths, shaped as DynamoDB shapes the result: nesting is kept
 * ({@code a.b[1].c} gives {@code {a: {b: [{c: ...}]}}}); several indexes into one list give a
 * compacted list in index order; paths that lead nowhere are left out, and so are maps and lists
 * none of whose projected members exist. Also used for ReturnValues UPDATED_OLD and UPDATED_NEW.
 */
public final class Projector {

    private Projector() {}

    /** The paths must not overlap (checked when they were parsed). */
    public static Map<String, AttributeValue> project(Map<String, AttributeValue> item, List<Path> paths) {
        Node root = new Node();
        for (Path p : paths) root.add(p.elements(), 0);
        Map<String, AttributeValue> result = new LinkedHashMap<>();
        for (Map.Entry<Object, Node> e : root.children.entrySet()) {
            String name = (String) e.getKey();
            AttributeValue v = item.get(name);
            if (v == null) continue;
            AttributeValue projected = e.getValue().project(v);
            if (projected != null) result.put(name, projected);
        }
        return result;
    }

    /** One step of the projection tree: a leaf takes the whole value, else only its children. */
    private static final class Node {
        /** Names (String) in the order first written; indexes (Integer) in ascending order. */
        final Map<Object, Node> children = new LinkedHashMap<>();
        final TreeMap<Integer, Node> indexes = new TreeMap<>();
        boolean leaf;

        void add(List<Path.Element> elements, int i) {
            if (i == elements.size()) {
                leaf = true;
                return;
            }
            Path.Element e = elements.get(i);
            Node child = e instanceof Path.Index idx
                    ? indexes.computeIfAbsent(idx.index(), k -> new Node())
                    : children.computeIfAbsent(((Path.Name) e).name(), k -> new Node());
            child.add(elements, i + 1);
        }

        AttributeValue project(AttributeValue value) {
            if (leaf) return value;
            if (!children.isEmpty() && value instanceof AttributeValue.M m) {
                Map<String, AttributeValue> members = new LinkedHashMap<>();
                for (Map.Entry<Object, Node> e : children.entrySet()) {
                    AttributeValue v = m.values().get((String) e.getKey());
                    if (v == null) continue;
                    AttributeValue projected = e.getValue().project(v);
                    if (projected != null) members.put((String) e.getKey(), projected);
                }
                return members.isEmpty() ? null : new AttributeValue.M(members);
            }
            if (!indexes.isEmpty() && value instanceof AttributeValue.L l) {
                List<AttributeValue> elements = new ArrayList<>();
                for (Map.Entry<Integer, Node> e : indexes.entrySet()) {
                    if (e.getKey() >= l.values().size()) break;
                    AttributeValue projected = e.getValue().project(l.values().get(e.getKey()));
                    if (projected != null) elements.add(projected);
                }
                return elements.isEmpty() ? null : new AttributeValue.L(List.copyOf(elements));
            }
            return null;
        }
    }
}

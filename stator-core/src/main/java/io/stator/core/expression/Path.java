package io.stator.core.expression;

import java.util.ArrayList;
import java.util.List;

/**
 * A document path: a top-level attribute, then map keys ({@code .name}) and list indexes
 * ({@code [n]}). As parsed, names may still be {@code #placeholders}; {@link Resolver} replaces
 * them with the names they stand for (a placeholder is always one whole element: a dot inside
 * its value is part of the name).
 */
public record Path(List<Element> elements) {

    public sealed interface Element {}

    /** A map key or attribute name. {@code bare} is false when it came from a #placeholder. */
    public record Name(String name, boolean bare) implements Element {}

    /** An unresolved #placeholder. */
    public record Placeholder(String placeholder) implements Element {}

    /** A list index. */
    public record Index(int index) implements Element {}

    public Path {
        elements = List.copyOf(elements);
    }

    public static Path of(String topLevelAttribute) {
        return new Path(List.of(new Name(topLevelAttribute, false)));
    }

    public Element first() { return elements.get(0); }

    /** The (resolved) top-level attribute name. */
    public String topLevelName() { return ((Name) elements.get(0)).name(); }

    public int size() { return elements.size(); }

    public boolean isTopLevel() { return elements.size() == 1; }

    public Path parent() { return new Path(elements.subList(0, elements.size() - 1)); }

    public Element last() { return elements.get(elements.size() - 1); }

    /** True when this path equals {@code other} or lies inside it. */
    public boolean startsWith(Path other) {
        return other.elements.size() <= elements.size() && elements.subList(0, other.elements.size()).equals(other.elements);
    }

    /** DynamoDB's rendering in error messages: {@code [a, b, [2], c]}. */
    @Override
    public String toString() {
        List<String> parts = new ArrayList<>(elements.size());
        for (Element e : elements) {
            parts.add(switch (e) {
                case Name n -> n.name();
                case Placeholder p -> p.placeholder();
                case Index i -> "[" + i.index() + "]";
            });
        }
        return "[" + String.join(", ", parts) + "]";
    }
}

package io.stator.core.expression;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Operand.Arithmetic;
import io.stator.core.expression.Operand.Constant;
import io.stator.core.expression.Operand.FunctionCall;
import io.stator.core.expression.Operand.PathOperand;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Applies an UpdateExpression's actions to an item, with DynamoDB's semantics:
 * <ul>
 *   <li>every SET value is computed from the item as it was before the update;</li>
 *   <li>SET to a list index past the end appends, several such in index order; REMOVE of list
 *       elements refers to their positions before the update, and past the end does nothing;</li>
 *   <li>a nested path needs its parent to exist and be of the right kind ("The document path
 *       provided in the update expression is invalid for update"), for REMOVE and DELETE too;
 *       only the last step may be missing, which for REMOVE and DELETE does nothing;</li>
 *   <li>ADD adds to a number (a missing one counts as 0) or unions into a set; DELETE takes
 *       elements out of a set and removes the attribute when none are left.</li>
 * </ul>
 * It returns a new item and leaves the old one untouched, so a failing update changes nothing.
 */
public final class UpdateApplier {

    private UpdateApplier() {}

    /**
     * @param base the item before the update, or just its key attributes when there is none
     * @return the item after the update
     */
    public static Map<String, AttributeValue> apply(List<UpdateAction> actions, Map<String, AttributeValue> base) {
        Map<String, AttributeValue> item = new LinkedHashMap<>(base);
        List<UpdateAction.Set> sets = new ArrayList<>();
        List<UpdateAction.Remove> removes = new ArrayList<>();
        List<UpdateAction> addsAndDeletes = new ArrayList<>();
        for (UpdateAction a : actions) {
            switch (a) {
                case UpdateAction.Set s -> sets.add(s);
                case UpdateAction.Remove r -> removes.add(r);
                default -> addsAndDeletes.add(a);
            }
        }
        // SET values come from the item before the update.
        Map<UpdateAction.Set, AttributeValue> setValues = new java.util.IdentityHashMap<>();
        for (UpdateAction.Set s : sets) setValues.put(s, value(s.value(), base));
        // Appends past the end of a list happen in index order, whatever the order written.
        sets.sort(Comparator.comparingInt(UpdateApplier::listIndexOf));
        for (UpdateAction.Set s : sets) {
            AttributeValue v = setValues.get(s);
            modify(item, s.path(), current -> v);
        }
        for (UpdateAction a : addsAndDeletes) {
            if (a instanceof UpdateAction.Add add) {
                AttributeValue v = ((Constant) add.value()).value();
                modify(item, add.path(), current -> add(current, v, UpdateApplier::wrongType));
            } else {
                AttributeValue v = ((Constant) ((UpdateAction.Delete) a).value()).value();
                modify(item, a.path(), current -> delete(current, v, UpdateApplier::wrongType));
            }
        }
        // Removal goes from the highest list position down, at every level of nesting, so that each
        // path still finds what it named before the update: REMOVE a[0], a[2].x takes a[2].x first.
        removes.sort(Comparator.comparing(UpdateAction.Remove::path, UpdateApplier::comparePositions).reversed());
        for (UpdateAction.Remove r : removes) modify(item, r.path(), current -> null);
        return item;
    }

    private static int listIndexOf(UpdateAction a) {
        return a.path().last() instanceof Path.Index i ? i.index() : -1;
    }

    /**
     * Orders paths step by step, list indexes by position; names only need some fixed order, and
     * a name and an index never meet at one step (such paths conflict and were refused).
     */
    private static int comparePositions(Path p, Path q) {
        int common = Math.min(p.size(), q.size());
        for (int i = 0; i < common; i++) {
            Path.Element a = p.elements().get(i);
            Path.Element b = q.elements().get(i);
            int order = a instanceof Path.Index x && b instanceof Path.Index y ? Integer.compare(x.index(), y.index())
                    : a instanceof Path.Name x && b instanceof Path.Name y ? x.name().compareTo(y.name()) : 0;
            if (order != 0) return order;
        }
        return Integer.compare(p.size(), q.size());
    }

    // ---- values -------------------------------------------------------------------------------

    private static AttributeValue value(Operand operand, Map<String, AttributeValue> item) {
        return switch (operand) {
            case Constant c -> c.value();
            case PathOperand p -> {
                AttributeValue v = Paths.get(item, p.path());
                if (v == null) throw missingOperand();
                yield v;
            }
            case FunctionCall f when f.name().equals("if_not_exists") -> {
                AttributeValue existing = Paths.get(item, ((PathOperand) f.arguments().get(0)).path());
                yield existing != null ? existing : value(f.arguments().get(1), item);
            }
            case FunctionCall f when f.name().equals("list_append") -> {
                AttributeValue first = value(f.arguments().get(0), item);
                AttributeValue second = value(f.arguments().get(1), item);
                if (!(first instanceof AttributeValue.L a) || !(second instanceof AttributeValue.L b)) throw wrongType();
                List<AttributeValue> joined = new ArrayList<>(a.values().size() + b.values().size());
                joined.addAll(a.values());
                joined.addAll(b.values());
                yield new AttributeValue.L(List.copyOf(joined));
            }
            // PartiQL's set_add(set, values) and set_delete(set, values) (UPDATE ... SET s =
            // set_add(s, <<...>>)): ADD's and DELETE's set arithmetic, as a value. Both operands
            // must exist, as list_append's must; a set left empty is no value, so SET removes
            // the attribute, as DELETE does.
            case FunctionCall f when f.name().equals("set_add") || f.name().equals("set_delete") -> {
                AttributeValue set = value(f.arguments().get(0), item);
                AttributeValue values = value(f.arguments().get(1), item);
                if (!isSet(set)) throw wrongType();
                yield f.name().equals("set_add") ? add(set, values, UpdateApplier::wrongType)
                        : delete(set, values, UpdateApplier::wrongType);
            }
            case Arithmetic a -> {
                AttributeValue left = value(a.left(), item);
                AttributeValue right = value(a.right(), item);
                if (!(left instanceof AttributeValue.N x) || !(right instanceof AttributeValue.N y)) throw wrongType();
                BigDecimal result = a.plus() ? x.value().bigDecimal().add(y.value().bigDecimal())
                        : x.value().bigDecimal().subtract(y.value().bigDecimal());
                yield number(result);
            }
            default -> throw new IllegalStateException("not an update operand: " + operand);
        };
    }

    /**
     * ADD: a number added to a number (a missing one counts as 0), a set's elements added to a
     * set, a list's elements appended to a list (legacy AttributeUpdates only). {@code mismatch}
     * is the error for values of different types (UpdateExpression and AttributeUpdates word it
     * differently).
     */
    public static AttributeValue add(AttributeValue current, AttributeValue v, Supplier<DynamoDbException> mismatch) {
        if (current == null) return v;
        if (current.type() != v.type()) throw mismatch.get();
        return switch (v) {
            case AttributeValue.N n -> number(((AttributeValue.N) current).value().bigDecimal().add(n.value().bigDecimal()));
            case AttributeValue.SS s -> new AttributeValue.SS(union(((AttributeValue.SS) current).values(), s.values()));
            case AttributeValue.NS s -> new AttributeValue.NS(union(((AttributeValue.NS) current).values(), s.values()));
            case AttributeValue.BS s -> new AttributeValue.BS(unionBytes(((AttributeValue.BS) current).values(), s.values()));
            case AttributeValue.L l -> {
                List<AttributeValue> joined = new ArrayList<>(((AttributeValue.L) current).values());
                joined.addAll(l.values());
                yield new AttributeValue.L(List.copyOf(joined));
            }
            default -> throw mismatch.get();
        };
    }

    /**
     * The result of + or - or ADD. One that needs more than 38 significant digits is refused with
     * DynamoDB's overflow message, not the "38 significant digits" one it gives for such a number
     * sent in a request: observed against DynamoDB by Scylla's test_number.py (1e50 + 1).
     */
    private static AttributeValue.N number(BigDecimal result) {
        if (result.signum() != 0 && result.stripTrailingZeros().precision() > DynamoNumber.MAX_DIGITS) {
            throw DynamoDbException.validation(
                    "Number overflow. Attempting to store a number with magnitude larger than supported range");
        }
        return new AttributeValue.N(DynamoNumber.of(result));
    }

    /** DELETE: a set's elements taken out of a set; null (remove the attribute) when none are left. */
    public static AttributeValue delete(AttributeValue current, AttributeValue v, Supplier<DynamoDbException> mismatch) {
        if (current == null) return null;
        if (current.type() != v.type()) throw mismatch.get();
        return switch (v) {
            // Taken out through a hash set: a list's removeAll compares every element with every
            // one taken out, quadratic in sets that fill 400 KB items.
            case AttributeValue.SS s -> {
                List<String> left = new ArrayList<>(((AttributeValue.SS) current).values());
                left.removeAll(new HashSet<>(s.values()));
                yield left.isEmpty() ? null : new AttributeValue.SS(List.copyOf(left));
            }
            case AttributeValue.NS s -> {
                List<DynamoNumber> left = new ArrayList<>(((AttributeValue.NS) current).values());
                left.removeAll(new HashSet<>(s.values()));
                yield left.isEmpty() ? null : new AttributeValue.NS(List.copyOf(left));
            }
            case AttributeValue.BS s -> {
                Set<ByteBuffer> out = new HashSet<>();
                for (byte[] b : s.values()) out.add(ByteBuffer.wrap(b));
                List<byte[]> left = new ArrayList<>(((AttributeValue.BS) current).values());
                left.removeIf(b -> out.contains(ByteBuffer.wrap(b)));
                yield left.isEmpty() ? null : new AttributeValue.BS(List.copyOf(left));
            }
            default -> throw mismatch.get();
        };
    }

    private static boolean isSet(AttributeValue v) {
        return v instanceof AttributeValue.SS || v instanceof AttributeValue.NS || v instanceof AttributeValue.BS;
    }

    private static <T> List<T> union(List<T> a, List<T> b) {
        LinkedHashSet<T> all = new LinkedHashSet<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    private static List<byte[]> unionBytes(List<byte[]> a, List<byte[]> b) {
        List<byte[]> all = new ArrayList<>(a);
        Set<ByteBuffer> seen = new HashSet<>();
        for (byte[] x : a) seen.add(ByteBuffer.wrap(x));
        for (byte[] x : b) {
            if (seen.add(ByteBuffer.wrap(x))) all.add(x);
        }
        return List.copyOf(all);
    }

    // ---- changing the item at a path ----------------------------------------------------------

    /**
     * Replaces the value at {@code path} by {@code change.apply(current)} (null removes it); the
     * path's parent must exist and be a map (for a name) or a list (for an index).
     */
    private static void modify(Map<String, AttributeValue> item, Path path, UnaryOperator<AttributeValue> change) {
        String top = path.topLevelName();
        if (path.isTopLevel()) {
            AttributeValue next = change.apply(item.get(top));
            if (next == null) item.remove(top);
            else item.put(top, next);
            return;
        }
        AttributeValue container = item.get(top);
        if (container == null) throw invalidPath();
        AttributeValue updated = modifyIn(container, path.elements(), 1, change);
        if (updated != null) item.put(top, updated);
    }

    /** The container with its descendant at elements[i..] changed; null when nothing changed. */
    private static AttributeValue modifyIn(AttributeValue container, List<Path.Element> elements, int i,
                                           UnaryOperator<AttributeValue> change) {
        Path.Element step = elements.get(i);
        boolean last = i == elements.size() - 1;
        if (step instanceof Path.Name n) {
            if (!(container instanceof AttributeValue.M m)) throw invalidPath();
            Map<String, AttributeValue> members = new LinkedHashMap<>(m.values());
            AttributeValue current = members.get(n.name());
            AttributeValue next;
            if (last) {
                next = change.apply(current);
            } else {
                if (current == null) throw invalidPath();
                next = modifyIn(current, elements, i + 1, change);
                if (next == null) return null;
            }
            if (next == null) members.remove(n.name());
            else members.put(n.name(), next);
            return new AttributeValue.M(members);
        }
        int index = ((Path.Index) step).index();
        if (!(container instanceof AttributeValue.L l)) throw invalidPath();
        List<AttributeValue> elementsOfList = new ArrayList<>(l.values());
        boolean present = index < elementsOfList.size();
        AttributeValue current = present ? elementsOfList.get(index) : null;
        AttributeValue next;
        if (last) {
            next = change.apply(current);
        } else {
            if (current == null) throw invalidPath();
            next = modifyIn(current, elements, i + 1, change);
            if (next == null) return null;
        }
        if (present) {
            if (next == null) elementsOfList.remove(index);
            else elementsOfList.set(index, next);
        } else if (next != null) {
            elementsOfList.add(next); // past the end: append
        } else {
            return null;
        }
        return new AttributeValue.L(List.copyOf(elementsOfList));
    }

    private static DynamoDbException invalidPath() {
        return DynamoDbException.validation("The document path provided in the update expression is invalid for update");
    }

    private static DynamoDbException missingOperand() {
        return DynamoDbException.validation("The provided expression refers to an attribute that does not exist in the item");
    }

    private static DynamoDbException wrongType() {
        return DynamoDbException.validation("An operand in the update expression has an incorrect data type");
    }
}

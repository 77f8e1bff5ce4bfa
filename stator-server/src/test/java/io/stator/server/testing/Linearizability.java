package io.stator.server.testing;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Whether a history of operations on keys, recorded by concurrent clients ({@link History}), is
 * linearizable: whether every operation can be given one instant between its invocation and its
 * return such that, in the order of those instants, each key behaves as a single register.
 *
 * <p>Algorithm: Wing and Gong's search with Lowe's memoisation, as Porcupine implements it. Each
 * key is an independent register, so the history is split per key and each part checked alone
 * (P-compositionality: a history is linearizable if and only if each key's is). For one key, the
 * invocations and returns are put in one list in time order (an invocation before a return at the
 * same instant, so that touching operations count as concurrent). The search walks the list: at an
 * invocation it tries to order that operation next (the register's model says whether its
 * outcome is possible in the current state), and if so lifts it out of the list and starts again
 * from the front; reaching a return means the operation it ends was not ordered before it had to
 * be, so the last choice is undone. Lowe's memo remembers every (set of ordered operations,
 * register value) already reached: reaching one again cannot lead anywhere new, which is what
 * keeps the search short on real histories. One more cut, sound for a register: an operation
 * that changes nothing (a read, a failed condition) and is possible now is ordered first, and if
 * nothing follows from there, nothing follows from the state before it either (see
 * {@code Search.possibleRead}); without it, concurrent reads of one value were tried in every
 * subset.
 *
 * <p>Outcomes: an operation whose outcome is unknown (a timeout, a 500) returns at infinity, as in
 * Porcupine: it may be ordered anywhere after its invocation, and ordered after everything else
 * it is the same as not having taken effect. A read with an unknown outcome tells nothing and is
 * dropped; so is an operation that answered a definite error and changed nothing
 * ({@link NoEffect}: a ReplicatedWriteConflictException, a throttling error). A conditional put
 * that failed its condition is kept: it says the register did not hold the expected value.
 *
 * <p>Bound: the search of one key gives up after {@link #DEFAULT_STEPS} steps (a step tries one
 * operation or undoes one); the memo holds at most that many entries of some 80 bytes, so 80 MB at
 * worst. A key given up on makes the verdict {@link Verdict#UNKNOWN}, unless another key is found
 * not linearizable. The budget is under a second of search. Measured on 2,000 operations whose
 * durations spread over 0 to 4 ms: over 10 keys, 8 to 32 clients take 2,000 to 7,000 steps in all,
 * a wrong history found in a few hundred; on one key, 8 clients decide both ways within 30,000
 * steps, 16 still pass a linearizable history (300,000 steps) but exhaust the budget on a wrong
 * one, and 24 exhaust it either way. So keep the clients of one key under a dozen: a key's
 * verdict comes from how many of its operations overlap, not from the history's length.
 */
public final class Linearizability {

    /** Steps the search of one key may take before it gives up (see the class comment). */
    public static final long DEFAULT_STEPS = 1_000_000;

    private Linearizability() {}

    /** An operation on one key's register; a null value means the item is absent. */
    public sealed interface Op permits Put, Delete, Get, ConditionalPut {
        String key();
    }

    public record Put(String key, String value) implements Op {
        public Put {
            Objects.requireNonNull(value, "a put writes a value; use Delete to remove the item");
        }
    }

    public record Delete(String key) implements Op {}

    public record Get(String key) implements Op {}

    /** Puts {@code value} if the register holds {@code expected} (null: if the item is absent). */
    public record ConditionalPut(String key, String expected, String value) implements Op {
        public ConditionalPut {
            Objects.requireNonNull(value, "a conditional put writes a value");
        }
    }

    public sealed interface Outcome permits Ok, Failed, Read, Unknown, NoEffect {}

    /** A write took effect (for a conditional put: its condition held). */
    public record Ok() implements Outcome {}

    /** A conditional put's condition did not hold (ConditionalCheckFailedException): nothing changed. */
    public record Failed() implements Outcome {}

    /** A get answered {@code value} (null: no item). */
    public record Read(String value) implements Outcome {}

    /** No answer, or one that does not say whether the operation took effect (a timeout, a 500). */
    public record Unknown() implements Outcome {}

    /** A definite error that changed nothing and observed nothing (ReplicatedWriteConflictException, say). */
    public record NoEffect() implements Outcome {}

    public static final Outcome OK = new Ok();
    public static final Outcome FAILED = new Failed();
    public static final Outcome UNKNOWN = new Unknown();
    public static final Outcome NO_EFFECT = new NoEffect();

    /**
     * One operation of a history: who invoked it, when (System.nanoTime of the same JVM for all), and
     * what it answered. An unknown outcome returns at {@link Long#MAX_VALUE} whatever is given.
     */
    public record Operation(int client, Op op, long invoked, long returned, Outcome outcome) {
        public Operation {
            Objects.requireNonNull(op);
            Objects.requireNonNull(outcome);
            if (outcome instanceof Unknown) returned = Long.MAX_VALUE;
            if (returned < invoked) throw new IllegalArgumentException("returned before invoked: " + op);
            boolean fits = switch (op) {
                case Get g -> outcome instanceof Read || outcome instanceof Unknown || outcome instanceof NoEffect;
                case ConditionalPut c -> !(outcome instanceof Read);
                case Put p -> !(outcome instanceof Read || outcome instanceof Failed);
                case Delete d -> !(outcome instanceof Read || outcome instanceof Failed);
            };
            if (!fits) throw new IllegalArgumentException(outcome + " is not an outcome of " + op);
        }
    }

    public enum Verdict { LINEARIZABLE, NOT_LINEARIZABLE, UNKNOWN }

    /**
     * The verdict on a whole history. When it is not linearizable, {@code key} is the first key
     * (in key order) that is not, and {@code explanation} says where the search got stuck; when it is
     * unknown, the key whose search ran out of steps.
     */
    public record Result(Verdict verdict, String key, String explanation, long steps) {
        public boolean isLinearizable() { return verdict == Verdict.LINEARIZABLE; }

        @Override
        public String toString() {
            return verdict + (key == null ? "" : " (key " + key + ")") + (explanation.isEmpty() ? "" : ": " + explanation);
        }
    }

    public static Result check(List<Operation> history) {
        return check(history, DEFAULT_STEPS);
    }

    /** As {@link #check(List)}, giving up on a key after {@code stepsPerKey} steps. */
    public static Result check(List<Operation> history, long stepsPerKey) {
        Map<String, List<Operation>> byKey = new TreeMap<>();
        for (Operation o : history) {
            if (o.outcome() instanceof NoEffect) continue;
            if (o.op() instanceof Get && o.outcome() instanceof Unknown) continue;
            byKey.computeIfAbsent(o.op().key(), k -> new ArrayList<>()).add(o);
        }
        long origin = history.stream().mapToLong(Operation::invoked).min().orElse(0);
        long steps = 0;
        Result unknown = null;
        for (Map.Entry<String, List<Operation>> key : byKey.entrySet()) {
            Search search = new Search(key.getValue(), stepsPerKey);
            Verdict verdict = search.run();
            steps += search.steps;
            if (verdict == Verdict.NOT_LINEARIZABLE) {
                return new Result(verdict, key.getKey(), search.explain(key.getKey(), origin), steps);
            }
            if (verdict == Verdict.UNKNOWN && unknown == null) {
                unknown = new Result(verdict, key.getKey(), "gave up after " + stepsPerKey + " steps on "
                        + key.getValue().size() + " operations", 0);
            }
        }
        if (unknown != null) return new Result(Verdict.UNKNOWN, unknown.key(), unknown.explanation(), steps);
        return new Result(Verdict.LINEARIZABLE, null, "", steps);
    }

    /** What an operation with its outcome does to the register, or {@link #IMPOSSIBLE}. */
    private static final Object IMPOSSIBLE = new Object();

    private static Object apply(String value, Op op, Outcome outcome) {
        return switch (op) {
            case Put p -> p.value();
            case Delete d -> null;
            case Get g -> Objects.equals(((Read) outcome).value(), value) ? value : IMPOSSIBLE;
            case ConditionalPut c -> {
                boolean holds = Objects.equals(c.expected(), value);
                yield switch (outcome) {
                    case Ok ok -> holds ? c.value() : IMPOSSIBLE;
                    case Failed f -> holds ? IMPOSSIBLE : value;
                    default -> holds ? c.value() : value; // unknown: took effect if it could
                };
            }
        };
    }

    /**
     * Whether the operation, with its outcome, leaves the register as it is in every state where
     * it is possible: a read, a failed condition, a conditional put of the value it expects.
     */
    private static boolean isReadLike(Operation o) {
        return switch (o.op()) {
            case Get g -> true;
            case ConditionalPut c -> o.outcome() instanceof Failed
                    || (o.outcome() instanceof Ok && c.value().equals(c.expected()));
            default -> false;
        };
    }

    /** An invocation or a return, linked in time order; lifted out of the list once ordered. */
    private static final class Event {
        final int op;
        final long time;
        final Event match; // an invocation's return; null for a return
        Event prev;
        Event next;

        Event(int op, long time, Event match) {
            this.op = op;
            this.time = time;
            this.match = match;
        }

        boolean isInvocation() { return match != null; }
    }

    /**
     * A state of the search already reached: the set of operations ordered, as the exclusive or of
     * their random 128-bit tags (Zobrist hashing: two sets share a tag with a chance of 2^-128,
     * and it is kept up to date in constant time), and the register's value.
     */
    private record Memo(long orderedLow, long orderedHigh, String value) {}

    /** A choice made: the invocation ordered, and the register's value before it. */
    private record Choice(Event invocation, String before) {}

    /** The search of one key's history. */
    private static final class Search {
        private final List<Operation> ops;
        private final long maxSteps;
        private final Event head = new Event(-1, Long.MIN_VALUE, null);
        private final boolean[] readLike;
        private final Deque<Choice> choices = new ArrayDeque<>();
        private final Set<Memo> memo = new HashSet<>();
        private final long[] tagLow;
        private final long[] tagHigh;
        private long orderedLow;
        private long orderedHigh;
        private String value; // the register's, after the operations ordered
        long steps;
        // The deepest point reached, for the explanation: the operations ordered by then, the
        // register's value, and the return that could not be passed.
        private int[] deepestOrder;
        private String deepestValue;
        private int deepestStuck = -1;
        private List<Integer> deepestPending;

        Search(List<Operation> ops, long maxSteps) {
            this.ops = ops;
            this.maxSteps = maxSteps;
            SplittableRandom random = new SplittableRandom(ops.size());
            this.tagLow = random.longs(ops.size()).toArray();
            this.tagHigh = random.longs(ops.size()).toArray();
            this.readLike = new boolean[ops.size()];
            for (int i = 0; i < ops.size(); i++) readLike[i] = isReadLike(ops.get(i));
            List<Event> events = new ArrayList<>();
            for (int i = 0; i < ops.size(); i++) {
                Event ret = new Event(i, ops.get(i).returned(), null);
                events.add(new Event(i, ops.get(i).invoked(), ret));
                events.add(ret);
            }
            events.sort(Comparator.comparingLong((Event e) -> e.time).thenComparing(e -> e.isInvocation() ? 0 : 1)
                    .thenComparingInt(e -> e.op));
            Event last = head;
            for (Event e : events) {
                last.next = e;
                e.prev = last;
                last = e;
            }
        }

        Verdict run() {
            Event event = head.next;
            boolean fresh = true; // the search just reached a new state
            while (head.next != null) {
                if (++steps > maxSteps) return Verdict.UNKNOWN;
                if (fresh) {
                    fresh = false;
                    Event read = possibleRead();
                    if (read != null) {
                        // Ordering it first is as good as any order (see readLike); if that was
                        // tried already, this state leads nowhere either.
                        if (tryOrder(read, value)) {
                            event = head.next;
                            fresh = true;
                            continue;
                        }
                        if ((event = backtrack()) == null) return Verdict.NOT_LINEARIZABLE;
                        continue;
                    }
                }
                if (event.isInvocation()) {
                    Operation o = ops.get(event.op);
                    Object after = apply(value, o.op(), o.outcome());
                    if (after != IMPOSSIBLE && tryOrder(event, (String) after)) {
                        event = head.next;
                        fresh = true;
                    } else {
                        event = event.next;
                    }
                } else {
                    // The operation this return ends had to be ordered by now.
                    if (deepestStuck < 0 || choices.size() > deepestOrder.length) remember(event);
                    if ((event = backtrack()) == null) return Verdict.NOT_LINEARIZABLE;
                }
            }
            return Verdict.LINEARIZABLE;
        }

        /**
         * A read-like operation that may come next and is possible on the register's value, or
         * null. Ordering it next is as good as any other choice: it changes nothing, and whatever
         * could come before it could come after it (it may come next, so nothing left had to end
         * before it began). So it is tried first, and if that fails, the state it was tried from
         * fails too: {@link #backtrack} undoes the choice before it as well. This is what keeps
         * many concurrent reads of one value from being tried in every subset.
         */
        private Event possibleRead() {
            for (Event e = head.next; e != null && e.isInvocation(); e = e.next) {
                Operation o = ops.get(e.op);
                if (readLike[e.op] && apply(value, o.op(), o.outcome()) != IMPOSSIBLE) return e;
            }
            return null;
        }

        /** Orders the invocation's operation next, leaving the register at {@code after}, unless that state was seen. */
        private boolean tryOrder(Event invocation, String after) {
            int op = invocation.op;
            if (!memo.add(new Memo(orderedLow ^ tagLow[op], orderedHigh ^ tagHigh[op], after))) return false;
            choices.push(new Choice(invocation, value));
            value = after;
            orderedLow ^= tagLow[op];
            orderedHigh ^= tagHigh[op];
            lift(invocation);
            return true;
        }

        /**
         * Undoes the last choice, and the one before it while the undone one was a read-like
         * operation (see {@link #possibleRead}); returns where the search goes on, or null when
         * there is nothing left to undo.
         */
        private Event backtrack() {
            Choice undone;
            do {
                if (choices.isEmpty()) return null;
                undone = choices.pop();
                value = undone.before();
                orderedLow ^= tagLow[undone.invocation().op];
                orderedHigh ^= tagHigh[undone.invocation().op];
                unlift(undone.invocation());
            } while (readLike[undone.invocation().op]);
            return undone.invocation().next;
        }

        private static void lift(Event invocation) {
            invocation.prev.next = invocation.next;
            invocation.next.prev = invocation.prev;
            Event ret = invocation.match;
            ret.prev.next = ret.next;
            if (ret.next != null) ret.next.prev = ret.prev;
        }

        private static void unlift(Event invocation) {
            Event ret = invocation.match;
            ret.prev.next = ret;
            if (ret.next != null) ret.next.prev = ret;
            invocation.prev.next = invocation;
            invocation.next.prev = invocation;
        }

        private void remember(Event stuck) {
            List<Choice> inOrder = new ArrayList<>(choices);
            deepestOrder = new int[inOrder.size()];
            for (int i = 0; i < deepestOrder.length; i++) {
                deepestOrder[i] = inOrder.get(deepestOrder.length - 1 - i).invocation().op; // the stack's bottom first
            }
            deepestValue = value;
            deepestStuck = stuck.op;
            deepestPending = new ArrayList<>();
            for (Event e = head.next; e != stuck; e = e.next) {
                if (e.isInvocation()) deepestPending.add(e.op);
            }
        }

        /** Where the deepest attempt got stuck, in a few lines. */
        String explain(String key, long origin) {
            StringBuilder s = new StringBuilder();
            s.append("no order of the ").append(ops.size()).append(" operations on key ").append(key)
                    .append(" fits a register. The longest order found has ").append(deepestOrder.length)
                    .append(" of them");
            int shown = Math.min(deepestOrder.length, 5);
            if (shown > 0) s.append(", ending with:");
            for (int i = deepestOrder.length - shown; i < deepestOrder.length; i++) {
                s.append("\n    ").append(describe(ops.get(deepestOrder[i]), origin));
            }
            s.append("\n  after which the item is ").append(show(deepestValue)).append(". Then\n    ")
                    .append(describe(ops.get(deepestStuck), origin))
                    .append("\n  returned, but neither it nor any operation invoked before that can come next:");
            for (int op : deepestPending) {
                Operation o = ops.get(op);
                s.append("\n    ").append(describe(o, origin)).append(
                        apply(deepestValue, o.op(), o.outcome()) == IMPOSSIBLE ? "  (impossible on " + show(deepestValue) + ")"
                                : "  (possible, but every order from there failed)");
            }
            return s.toString();
        }
    }

    private static String show(String value) {
        return value == null ? "absent" : "\"" + value + "\"";
    }

    /** "client 2 get(k1) -> "a"  [1.204 .. 1.380 ms]", times from the history's first invocation. */
    static String describe(Operation o, long origin) {
        String op = switch (o.op()) {
            case Put p -> "put(" + p.key() + ", " + show(p.value()) + ")";
            case Delete d -> "delete(" + d.key() + ")";
            case Get g -> "get(" + g.key() + ")";
            case ConditionalPut c -> "conditionalPut(" + c.key() + ", expected " + show(c.expected()) + ", "
                    + show(c.value()) + ")";
        };
        String outcome = switch (o.outcome()) {
            case Ok ok -> "ok";
            case Failed f -> "condition failed";
            case Read r -> show(r.value());
            case Unknown u -> "unknown";
            case NoEffect n -> "no effect";
        };
        String returned = o.returned() == Long.MAX_VALUE ? "never" : millis(o.returned() - origin);
        return "client " + o.client() + " " + op + " -> " + outcome + "  [" + millis(o.invoked() - origin) + " .. "
                + returned + " ms]";
    }

    private static String millis(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.3f", nanos / 1e6);
    }
}

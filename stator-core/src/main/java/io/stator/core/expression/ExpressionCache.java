package io.stator.core.expression;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Parsed expressions by kind and text, so that a hot request (the same expression with new
 * values) is not parsed again. Parsing does not depend on the placeholders' values, so one
 * parse serves every request. Reads take no lock. An application uses a handful of distinct
 * expressions, so the cache is bounded crudely: past {@link #MAX_ENTRIES} expressions, or
 * {@link #MAX_CHARS} characters of them, it starts over. The second bound is the one that holds
 * memory: a client sending ever new 4 KB expressions would otherwise keep 10,000 of them and
 * their trees (hundreds of MB) on a heap {@code --memory} gives a quarter of its budget.
 */
final class ExpressionCache {

    static final int MAX_ENTRIES = 10_000;

    /** About 20 MB of texts and trees together (a tree takes several times its text). */
    static final long MAX_CHARS = 1 << 20;

    private record Key(ExpressionKind kind, String text) {}

    private static final ConcurrentHashMap<Key, ParsedExpression> CACHE = new ConcurrentHashMap<>();
    /** The characters of the texts in the cache; approximate under races, which is enough for a bound. */
    private static final AtomicLong CHARS = new AtomicLong();

    private ExpressionCache() {}

    static ParsedExpression parse(ExpressionKind kind, String text) {
        Key key = new Key(kind, text);
        ParsedExpression hit = CACHE.get(key);
        if (hit != null) return hit;
        ParsedExpression parsed = Parser.parse(kind, text); // a syntax error is thrown, never cached
        if (CACHE.size() >= MAX_ENTRIES || CHARS.get() + text.length() > MAX_CHARS) {
            CACHE.clear();
            CHARS.set(0);
        }
        if (CACHE.put(key, parsed) == null) CHARS.addAndGet(text.length());
        return parsed;
    }

    /** The characters held, for tests. */
    static long chars() {
        return CHARS.get();
    }
}

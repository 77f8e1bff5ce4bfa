package io.stator.core.expression;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Parsed expressions by kind and text, so that a hot request (the same expression with new
 * values) is not parsed again. Parsing does not depend on the placeholders' values, so one
 * parse serves every request. Reads take no lock. An application uses a handful of distinct
 * expressions, so the cache is bounded crudely: past {@link #MAX_ENTRIES} it starts over.
 */
final class ExpressionCache {

    private static final int MAX_ENTRIES = 10_000;

    private record Key(ExpressionKind kind, String text) {}

    private static final ConcurrentHashMap<Key, ParsedExpression> CACHE = new ConcurrentHashMap<>();

    private ExpressionCache() {}

    static ParsedExpression parse(ExpressionKind kind, String text) {
        Key key = new Key(kind, text);
        ParsedExpression hit = CACHE.get(key);
        if (hit != null) return hit;
        ParsedExpression parsed = Parser.parse(kind, text); // a syntax error is thrown, never cached
        if (CACHE.size() >= MAX_ENTRIES) CACHE.clear();
        CACHE.put(key, parsed);
        return parsed;
    }
}

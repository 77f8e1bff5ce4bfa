package io.stator.core.key;

import io.stator.core.model.AttributeValue;

/**
 * The sort-key part of a Query's key condition: a comparison, BETWEEN, or begins_with. It
 * becomes a range of row keys through {@link KeyRanges}.
 */
public sealed interface SortKeyCondition {

    record Equal(AttributeValue value) implements SortKeyCondition {}

    record LessThan(AttributeValue value) implements SortKeyCondition {}

    record LessOrEqual(AttributeValue value) implements SortKeyCondition {}

    record GreaterThan(AttributeValue value) implements SortKeyCondition {}

    record GreaterOrEqual(AttributeValue value) implements SortKeyCondition {}

    record Between(AttributeValue lower, AttributeValue upper) implements SortKeyCondition {}

    /** For S and B sort keys only. */
    record BeginsWith(AttributeValue prefix) implements SortKeyCondition {}
}

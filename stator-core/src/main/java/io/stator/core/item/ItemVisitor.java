package io.stator.core.item;

import io.stator.core.model.DynamoNumber;

/**
 * Receives a stored item's attributes as {@link ItemCodec#visit} walks its bytes, without the
 * item being decoded: strings and binaries are handed over as ranges of the stored bytes, so a
 * 400 KB value is written out (as a response's JSON, say) without a copy of it being made.
 *
 * <p>The events nest as the values do: {@link #name} before each top-level attribute's value and
 * each map entry's; a value is one of the scalar events, or a {@code begin}, its contents and
 * the matching {@code end}. A set's elements are scalar events between {@link #beginSet} and
 * {@link #endSet}. The ranges are valid only during the call.
 *
 * @param <E> what the visitor may throw (an IOException of the writer it writes to, say)
 */
public interface ItemVisitor<E extends Exception> {

    /** An attribute's or a map entry's name, as UTF-8. */
    void name(byte[] utf8, int offset, int length) throws E;

    /** An S value (or a string set's element), as UTF-8. */
    void string(byte[] utf8, int offset, int length) throws E;

    /** An N value (or a number set's element). */
    void number(DynamoNumber value) throws E;

    /** A B value (or a binary set's element). */
    void binary(byte[] bytes, int offset, int length) throws E;

    void bool(boolean value) throws E;

    void nullValue() throws E;

    /** An M value of {@code count} entries, each a {@link #name} and a value, then {@link #endMap}. */
    void beginMap(int count) throws E;

    void endMap() throws E;

    /** An L value of {@code count} values, then {@link #endList}. */
    void beginList(int count) throws E;

    void endList() throws E;

    /** An SS, NS or BS value ({@code type} is its type's name) of {@code count} elements, then {@link #endSet}. */
    void beginSet(String type, int count) throws E;

    void endSet() throws E;
}

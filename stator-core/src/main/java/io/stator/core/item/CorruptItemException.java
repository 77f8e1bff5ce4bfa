package io.stator.core.item;

/**
 * Stored item bytes that {@link ItemCodec} cannot read: truncated, an unknown format version or
 * type tag, a length past the end, nesting deeper than any item it writes. It means damaged
 * storage or a bug, never a bad request, so it keeps its stack trace.
 */
public class CorruptItemException extends RuntimeException {

    public CorruptItemException(String message) {
        super(message);
    }

    public CorruptItemException(String message, Throwable cause) {
        super(message, cause);
    }
}

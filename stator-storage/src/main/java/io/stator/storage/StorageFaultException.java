package io.stator.storage;

/**
 * The storage cannot take writes for now: its disk is full, or writing to it failed. It is a
 * fault of the storage, not of the request: the same request may succeed later, once the fault
 * is cleared (space freed, the device back), and nothing the storage acknowledged before is
 * lost. Reads go on working where the backend can serve them.
 *
 * <p>The backend reports the fault and its cause once, where operators look (its log), not once
 * per failed call; the message here is one line for that log, and carries the backend's cause.
 * No stack trace is taken: during a fault every write fails the same way, and the trace would
 * tell nothing the cause does not.
 */
public class StorageFaultException extends RuntimeException {

    /** What kind of fault it is, for a front end to word its answer. */
    public enum Kind {
        /** The disk (or the space the store may use) is full. */
        OUT_OF_SPACE,
        /** Writing failed for another reason (an I/O error, a device gone read-only). */
        WRITE_FAILED
    }

    private final Kind kind;

    public StorageFaultException(Kind kind, String message, Throwable cause) {
        super(message, cause, true, false);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}

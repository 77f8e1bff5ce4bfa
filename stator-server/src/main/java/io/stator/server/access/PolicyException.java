package io.stator.server.access;

/**
 * A policy document that is not a valid policy: where (line and column, when known), and why.
 * {@link #reason} is IAM's wording where IAM's is known ("Missing required field Resource"),
 * which DynamoDB's PutResourcePolicy reports; {@link #detail} says the same for a person
 * reading the --policies file.
 */
public final class PolicyException extends Exception {

    /** What kind of problem, for the message DynamoDB gives for it. */
    public enum Kind {
        /** Not JSON at all. */
        INVALID_JSON,
        /** A required element is absent: {@link #reason} is "Missing required field X". */
        MISSING_FIELD,
        /** An element of the wrong type or value: DynamoDB says "Syntax error at position (l,c)". */
        SYNTAX,
        /** Statement is an empty list. */
        EMPTY_STATEMENT,
        /** Two statements with one Sid. */
        DUPLICATE_SID,
        /** An element a policy of this kind may not have (Principal in an identity policy). */
        PROHIBITED_FIELD
    }

    private final Kind kind;
    private final Json.Where where;
    private final String reason;

    PolicyException(Kind kind, Json.Where where, String reason) {
        super(reason, null, false, false);
        this.kind = kind;
        this.where = where;
        this.reason = reason;
    }

    public Kind kind() { return kind; }

    /** Line of the element at fault (1-based), or 0 when unknown. */
    public int line() { return where == null ? 0 : where.line(); }

    /** Column of the element at fault (1-based), or 0 when unknown. */
    public int column() { return where == null ? 0 : where.column(); }

    public String reason() { return reason; }

    /** "line 3, column 14: Missing required field Effect". */
    public String detail() {
        return where == null ? reason : where + ": " + reason;
    }
}

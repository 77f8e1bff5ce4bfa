package io.stator.core.expression;

/** The six kinds of DynamoDB expression, named as the request members that carry them. */
public enum ExpressionKind {
    CONDITION("ConditionExpression"),
    UPDATE("UpdateExpression"),
    PROJECTION("ProjectionExpression"),
    FILTER("FilterExpression"),
    KEY_CONDITION("KeyConditionExpression"),
    SEARCH_CONDITION("SearchConditionExpression");

    private final String memberName;

    ExpressionKind(String memberName) {
        this.memberName = memberName;
    }

    /** The request member, e.g. "ConditionExpression". */
    public String memberName() { return memberName; }

    /** DynamoDB's prefix for errors in this expression: "Invalid ConditionExpression: ". */
    public String errorPrefix() { return "Invalid " + memberName + ": "; }

    /** True for the kinds written in the condition grammar. */
    public boolean isCondition() {
        return this == CONDITION || this == FILTER || this == KEY_CONDITION || this == SEARCH_CONDITION;
    }
}

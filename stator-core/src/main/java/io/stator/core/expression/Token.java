package io.stator.core.expression;

/**
 * One token of an expression, with its place in the text (used to quote the text near a syntax
 * error the way DynamoDB does).
 */
record Token(Type type, String text, int start, int end) {

    enum Type {
        NAME,               // a bare attribute or function name: [a-zA-Z][a-zA-Z0-9_]*
        NAME_PLACEHOLDER,   // #name
        VALUE_PLACEHOLDER,  // :value
        INDEX,              // a list index: 0 or [1-9][0-9]*
        KEYWORD,            // AND OR NOT BETWEEN IN SET REMOVE ADD DELETE, any case
        EQ, NE, LT, LE, GT, GE, PLUS, MINUS,
        LPAREN, RPAREN, LBRACKET, RBRACKET, COMMA, DOT,
        WHITESPACE,
        UNKNOWN,            // any other single character
        EOF
    }

    boolean is(Type t) { return type == t; }

    /** True for the keyword {@code word} (upper case), in any case. */
    boolean isKeyword(String word) { return type == Type.KEYWORD && text.equalsIgnoreCase(word); }
}

package io.stator.core.expression;

import io.stator.core.expression.Token.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Splits an expression into tokens as DynamoDB's lexer does (its grammar is published in AWS's
 * DAX client): bare names start with an ASCII letter; {@code #name} and {@code :value} may start
 * with a digit or underscore; list indexes are literal integers without leading zeros; there are
 * no string or number literals; keywords are case-insensitive. Whitespace is kept as tokens
 * because DynamoDB quotes it in the "near" text of syntax errors.
 */
final class Lexer {

    private static final Set<String> KEYWORDS = Set.of("AND", "OR", "NOT", "BETWEEN", "IN", "SET", "REMOVE", "ADD",
            "DELETE");

    private Lexer() {}

    /** All tokens, whitespace included, ending with one EOF token. */
    static List<Token> tokenize(String text) {
        List<Token> tokens = new ArrayList<>();
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            int start = i;
            Type type;
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
                while (i < n && isSpace(text.charAt(i))) i++;
                type = Type.WHITESPACE;
            } else if (isLetter(c)) {
                while (i < n && isWordChar(text.charAt(i))) i++;
                String word = text.substring(start, i);
                type = KEYWORDS.contains(word.toUpperCase(Locale.ROOT)) ? Type.KEYWORD : Type.NAME;
            } else if ((c == '#' || c == ':') && i + 1 < n && isWordChar(text.charAt(i + 1))) {
                i++;
                while (i < n && isWordChar(text.charAt(i))) i++;
                type = c == '#' ? Type.NAME_PLACEHOLDER : Type.VALUE_PLACEHOLDER;
            } else if (c >= '0' && c <= '9') {
                i++;
                if (c != '0') {
                    while (i < n && text.charAt(i) >= '0' && text.charAt(i) <= '9') i++;
                }
                type = Type.INDEX;
            } else if (c == '<' && i + 1 < n && text.charAt(i + 1) == '>') {
                i += 2;
                type = Type.NE;
            } else if (c == '<' && i + 1 < n && text.charAt(i + 1) == '=') {
                i += 2;
                type = Type.LE;
            } else if (c == '>' && i + 1 < n && text.charAt(i + 1) == '=') {
                i += 2;
                type = Type.GE;
            } else {
                i += Character.charCount(text.codePointAt(i));
                type = switch (c) {
                    case '=' -> Type.EQ;
                    case '<' -> Type.LT;
                    case '>' -> Type.GT;
                    case '+' -> Type.PLUS;
                    case '-' -> Type.MINUS;
                    case '(' -> Type.LPAREN;
                    case ')' -> Type.RPAREN;
                    case '[' -> Type.LBRACKET;
                    case ']' -> Type.RBRACKET;
                    case ',' -> Type.COMMA;
                    case '.' -> Type.DOT;
                    default -> Type.UNKNOWN;
                };
            }
            tokens.add(new Token(type, text.substring(start, i), start, i));
        }
        tokens.add(new Token(Type.EOF, "<EOF>", n, n));
        return tokens;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
    }

    private static boolean isLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static boolean isWordChar(char c) {
        return isLetter(c) || (c >= '0' && c <= '9') || c == '_';
    }
}

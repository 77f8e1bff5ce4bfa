package io.stator.core.partiql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a PartiQL statement into tokens: bare words (keywords are decided by the parser, since
 * most of PartiQL's keywords may not be attribute names only in some places), "quoted
 * identifiers" (a doubled quote stands for one), 'strings' (likewise), numbers, {@code ?}, and
 * the punctuation of the dialect, {@code << >>} included. A token that cannot start anything is
 * kept as UNKNOWN so that the parser reports it where it stands.
 */
final class PartiqlLexer {

    enum Type {
        WORD, QUOTED, STRING, NUMBER, PARAMETER,
        EQ, NE, LT, LE, GT, GE, PLUS, MINUS, STAR,
        LPAREN, RPAREN, LBRACKET, RBRACKET, LBRACE, RBRACE, LSET, RSET, COMMA, DOT, COLON, SEMICOLON,
        UNKNOWN, UNTERMINATED, EOF
    }

    record Token(Type type, String text, int start) {
        boolean is(Type t) { return type == t; }

        boolean isWord(String word) { return type == Type.WORD && text.equalsIgnoreCase(word); }
    }

    private PartiqlLexer() {}

    static List<Token> tokenize(String s) {
        List<Token> tokens = new ArrayList<>();
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            int start = i;
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (c == '-' && i + 1 < n && s.charAt(i + 1) == '-') { // a comment, to the end of the line
                while (i < n && s.charAt(i) != '\n') i++;
                continue;
            }
            if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*' && s.indexOf("*/", i + 2) < 0) {
                // An unterminated block comment: the parser refuses it as it does '#'.
                tokens.add(new Token(Type.UNKNOWN, "/*", start));
                break;
            }
            if (Character.isLetter(c) || c == '_' || c == '$') {
                while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_' || s.charAt(i) == '$')) i++;
                tokens.add(new Token(Type.WORD, s.substring(start, i), start));
                continue;
            }
            if (c == '"' || c == '\'') {
                StringBuilder text = new StringBuilder();
                i++;
                boolean closed = false;
                while (i < n) {
                    char d = s.charAt(i);
                    if (d == c) {
                        if (i + 1 < n && s.charAt(i + 1) == c) {
                            text.append(c);
                            i += 2;
                            continue;
                        }
                        i++;
                        closed = true;
                        break;
                    }
                    text.append(d);
                    i++;
                }
                if (!closed) {
                    tokens.add(new Token(Type.UNTERMINATED, s.substring(start), start));
                    break;
                }
                tokens.add(new Token(c == '"' ? Type.QUOTED : Type.STRING, text.toString(), start));
                continue;
            }
            if (isDigit(c) || (c == '.' && i + 1 < n && isDigit(s.charAt(i + 1)))) {
                while (i < n && isDigit(s.charAt(i))) i++;
                if (i < n && s.charAt(i) == '.') {
                    i++;
                    while (i < n && isDigit(s.charAt(i))) i++;
                }
                if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
                    int j = i + 1;
                    if (j < n && (s.charAt(j) == '+' || s.charAt(j) == '-')) j++;
                    if (j < n && isDigit(s.charAt(j))) {
                        i = j;
                        while (i < n && isDigit(s.charAt(i))) i++;
                    }
                }
                tokens.add(new Token(Type.NUMBER, s.substring(start, i), start));
                continue;
            }
            String two = i + 1 < n ? s.substring(i, i + 2) : "";
            Type type = switch (two) {
                case "<>", "!=" -> Type.NE;
                case "<=" -> Type.LE;
                case ">=" -> Type.GE;
                case "<<" -> Type.LSET;
                case ">>" -> Type.RSET;
                default -> null;
            };
            if (type != null) {
                tokens.add(new Token(type, two, start));
                i += 2;
                continue;
            }
            type = switch (c) {
                case '=' -> Type.EQ;
                case '<' -> Type.LT;
                case '>' -> Type.GT;
                case '+' -> Type.PLUS;
                case '-' -> Type.MINUS;
                case '*' -> Type.STAR;
                case '(' -> Type.LPAREN;
                case ')' -> Type.RPAREN;
                case '[' -> Type.LBRACKET;
                case ']' -> Type.RBRACKET;
                case '{' -> Type.LBRACE;
                case '}' -> Type.RBRACE;
                case ',' -> Type.COMMA;
                case '.' -> Type.DOT;
                case ':' -> Type.COLON;
                case ';' -> Type.SEMICOLON;
                case '?' -> Type.PARAMETER;
                default -> Type.UNKNOWN;
            };
            i += Character.charCount(s.codePointAt(i));
            tokens.add(new Token(type, s.substring(start, i), start));
        }
        tokens.add(new Token(Type.EOF, "<EOF>", n));
        return tokens;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}

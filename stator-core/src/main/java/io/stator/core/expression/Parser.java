package io.stator.core.expression;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition.Comparator;
import io.stator.core.expression.Token.Type;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One recursive-descent parser for every kind of expression (STYLE: one grammar, narrowed per
 * use). It builds the immutable AST and notes what later phases report (redundant parentheses,
 * a repeated clause, operator counts); it does not look at placeholders or function names.
 *
 * <p>Syntax errors are worded as DynamoDB words them: {@code Syntax error; token: "X", near:
 * "Y"}, where X is the first token that cannot be parsed ({@code <EOF>} at the end) and Y is the
 * text from the token before it to the token after it, whitespace included (a whitespace token
 * widens the window by one more token). Where "(" could open either a condition or an operand,
 * the parser tries the condition first and backs up; the error it reports is the one that got
 * furthest, as a parser with lookahead would.
 *
 * <p>Nesting (parentheses, NOT, function arguments) is limited to {@link #MAX_DEPTH} levels, so
 * that no input can exhaust the stack; deeper input is a syntax error at the token that went too
 * deep. The limit is set where no expression within the 4 KB limit reaches it (each level takes
 * at least two bytes), because DynamoDB parses such expressions and then reports what is wrong
 * with them: "redundant parentheses" for 2046 pairs around a comparison, "too many operators"
 * for 1000 NOTs, "Invalid function name" for f(f(...)) 1355 deep (Scylla's test_limits.py,
 * observed against DynamoDB). At the limit the parser needs about 2 MB of stack (interpreted),
 * which is why the server's request threads are given more than the JVM's default.
 */
final class Parser {

    /** Deeper than any expression of at most 4096 bytes can nest. */
    static final int MAX_DEPTH = 2048;

    /** Thrown inside the parser; {@code tokenIndex} is the offending token in {@link #tokens}. */
    private static final class SyntaxError extends RuntimeException {
        final int tokenIndex;

        SyntaxError(int tokenIndex) {
            super(null, null, false, false);
            this.tokenIndex = tokenIndex;
        }
    }

    private final ExpressionKind kind;
    private final String text;
    private final List<Token> tokens;          // all tokens, whitespace included
    private final int[] significant;           // indexes of non-whitespace tokens
    private int pos;                           // index into significant
    private int consumed;                      // the index into significant that next() last returned
    private int depth;
    private int furthest = -1;

    private final Set<Object> parenthesized = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean redundantParentheses;
    private String repeatedClause;
    private int operatorCount;
    private int largestInList;
    /** The first list index past the int range, as written: refused once the expression has parsed. */
    private String indexOutOfRange;

    private Parser(ExpressionKind kind, String text) {
        this.kind = kind;
        this.text = text;
        this.tokens = Lexer.tokenize(text);
        int count = 0;
        for (Token t : tokens) if (!t.is(Type.WHITESPACE)) count++;
        significant = new int[count];
        int j = 0;
        for (int i = 0; i < tokens.size(); i++) if (!tokens.get(i).is(Type.WHITESPACE)) significant[j++] = i;
    }

    static ParsedExpression parse(ExpressionKind kind, String text) {
        Parser p = new Parser(kind, text);
        try {
            return p.parseWhole();
        } catch (SyntaxError e) {
            throw p.syntaxError(Math.max(e.tokenIndex, p.furthest));
        }
    }

    private ParsedExpression parseWhole() {
        Condition condition = null;
        List<UpdateAction> actions = null;
        List<Path> projection = null;
        switch (kind) {
            case UPDATE -> actions = parseUpdate();
            case PROJECTION -> projection = parseProjection();
            default -> condition = parseCondition();
        }
        expect(Type.EOF);
        if (indexOutOfRange != null) {
            // DynamoDB's text (AWS's DAX client words it so too); a syntax error anywhere comes first.
            throw DynamoDbException.validation(kind.errorPrefix() + "List index is not within the allowable range; "
                    + "index: [" + indexOutOfRange + "]");
        }
        return new ParsedExpression(kind, text, condition, actions, projection, redundantParentheses,
                repeatedClause, operatorCount, largestInList);
    }

    // ---- conditions ---------------------------------------------------------------------------

    private Condition parseCondition() {
        Condition left = parseAnd();
        while (peek().isKeyword("OR")) {
            next();
            operatorCount++;
            left = new Condition.Or(left, parseAnd());
        }
        return left;
    }

    private Condition parseAnd() {
        Condition left = parseNot();
        while (peek().isKeyword("AND")) {
            next();
            operatorCount++;
            left = new Condition.And(left, parseNot());
        }
        return left;
    }

    private Condition parseNot() {
        if (peek().isKeyword("NOT")) {
            next();
            operatorCount++;
            enter();
            Condition c = new Condition.Not(parseNot());
            depth--;
            return c;
        }
        return parsePrimaryCondition();
    }

    private Condition parsePrimaryCondition() {
        if (peek().is(Type.LPAREN)) {
            int save = pos;
            int savedDepth = depth;
            int savedOperators = operatorCount;
            boolean savedRedundant = redundantParentheses;
            try {
                next();
                enter();
                Condition inner = parseCondition();
                expect(Type.RPAREN);
                // "(size(b)) = :v": a parenthesized operand after all, which DynamoDB accepts.
                Token after = peek();
                if (comparator(after) != null || after.isKeyword("BETWEEN") || after.isKeyword("IN")) throw error();
                depth--;
                if (parenthesized.contains(inner)) redundantParentheses = true;
                parenthesized.add(inner);
                return inner;
            } catch (SyntaxError e) {
                // Not a parenthesized condition; maybe a parenthesized operand: "(a) = b".
                furthest = Math.max(furthest, e.tokenIndex);
                pos = save;
                depth = savedDepth;
                operatorCount = savedOperators;
                redundantParentheses = savedRedundant;
            }
        }
        Operand left = parseOperand(false);
        Token t = peek();
        Comparator comparator = comparator(t);
        if (comparator != null) {
            next();
            operatorCount++;
            return new Condition.Comparison(comparator, left, parseOperand(false));
        }
        if (t.isKeyword("BETWEEN")) {
            next();
            operatorCount++;
            Operand lower = parseOperand(false);
            if (!peek().isKeyword("AND")) throw error();
            next();
            return new Condition.Between(left, lower, parseOperand(false));
        }
        if (t.isKeyword("IN")) {
            next();
            operatorCount++;
            expect(Type.LPAREN);
            List<Operand> candidates = new ArrayList<>();
            candidates.add(parseOperand(false));
            while (peek().is(Type.COMMA)) {
                next();
                candidates.add(parseOperand(false));
            }
            expect(Type.RPAREN);
            largestInList = Math.max(largestInList, candidates.size());
            return new Condition.In(left, candidates);
        }
        if (left instanceof Operand.FunctionCall call && !parenthesized.contains(left)) {
            return new Condition.Function(call);
        }
        throw error();
    }

    private static Comparator comparator(Token t) {
        return switch (t.type()) {
            case EQ -> Comparator.EQ;
            case NE -> Comparator.NE;
            case LT -> Comparator.LT;
            case LE -> Comparator.LE;
            case GT -> Comparator.GT;
            case GE -> Comparator.GE;
            default -> null;
        };
    }

    // ---- operands -----------------------------------------------------------------------------

    /** An operand; in SET ({@code update}) a parenthesized operand may hold arithmetic. */
    private Operand parseOperand(boolean update) {
        Token t = peek();
        switch (t.type()) {
            case LPAREN -> {
                next();
                enter();
                Operand inner = update ? parseSetValue() : parseOperand(false);
                expect(Type.RPAREN);
                depth--;
                if (inner instanceof Operand.PathOperand path && (peek().is(Type.DOT) || peek().is(Type.LBRACKET))) {
                    // "(a).d": DynamoDB parses it, then refuses it as redundant parentheses.
                    redundantParentheses = true;
                    return new Operand.PathOperand(pathFrom(new ArrayList<>(path.path().elements())));
                }
                if (parenthesized.contains(inner)) redundantParentheses = true;
                parenthesized.add(inner);
                return inner;
            }
            case VALUE_PLACEHOLDER -> {
                next();
                return new Operand.ValueRef(t.text());
            }
            case NAME -> {
                if (peekAhead(1).is(Type.LPAREN)) return parseFunctionCall();
                return new Operand.PathOperand(parsePath());
            }
            case NAME_PLACEHOLDER -> {
                return new Operand.PathOperand(parsePath());
            }
            default -> throw error();
        }
    }

    private Operand.FunctionCall parseFunctionCall() {
        String name = next().text();
        expect(Type.LPAREN);
        enter();
        List<Operand> args = new ArrayList<>();
        args.add(parseOperand(false));
        while (peek().is(Type.COMMA)) {
            next();
            args.add(parseOperand(false));
        }
        expect(Type.RPAREN);
        depth--;
        return new Operand.FunctionCall(name, args);
    }

    private Path parsePath() {
        List<Path.Element> elements = new ArrayList<>();
        elements.add(pathName(next()));
        return pathFrom(elements);
    }

    /** The path's further elements ({@code .name}, {@code [index]}), after {@code elements}. */
    private Path pathFrom(List<Path.Element> elements) {
        while (true) {
            Token t = peek();
            if (t.is(Type.DOT)) {
                next();
                elements.add(pathName(next()));
            } else if (t.is(Type.LBRACKET)) {
                next();
                Token index = next();
                if (!index.is(Type.INDEX)) throw errorAt(consumed);
                int value;
                try {
                    value = Integer.parseInt(index.text());
                } catch (NumberFormatException e) {
                    if (indexOutOfRange == null) indexOutOfRange = index.text();
                    value = Integer.MAX_VALUE;
                }
                expect(Type.RBRACKET);
                elements.add(new Path.Index(value));
            } else {
                return new Path(elements);
            }
        }
    }

    private Path.Element pathName(Token t) {
        if (t.is(Type.NAME)) return new Path.Name(t.text(), true);
        if (t.is(Type.NAME_PLACEHOLDER)) return new Path.Placeholder(t.text());
        throw errorAt(consumed);
    }

    // ---- update and projection ----------------------------------------------------------------

    private List<UpdateAction> parseUpdate() {
        List<UpdateAction> actions = new ArrayList<>();
        Set<String> seen = new java.util.HashSet<>();
        do {
            Token clause = peek();
            if (!clause.is(Type.KEYWORD)) throw error();
            String word = clause.text().toUpperCase(Locale.ROOT);
            switch (word) {
                case "SET", "REMOVE", "ADD", "DELETE" -> { }
                default -> throw error();
            }
            next();
            if (!seen.add(word) && repeatedClause == null) repeatedClause = word;
            do {
                Path path = parsePath();
                switch (word) {
                    case "SET" -> {
                        expect(Type.EQ);
                        actions.add(new UpdateAction.Set(path, parseSetValue()));
                    }
                    case "REMOVE" -> actions.add(new UpdateAction.Remove(path));
                    case "ADD" -> actions.add(new UpdateAction.Add(path, valuePlaceholder()));
                    default -> actions.add(new UpdateAction.Delete(path, valuePlaceholder()));
                }
            } while (peek().is(Type.COMMA) && next() != null);
        } while (!peek().is(Type.EOF));
        return actions;
    }

    private Operand valuePlaceholder() {
        Token t = next();
        if (!t.is(Type.VALUE_PLACEHOLDER)) throw errorAt(consumed);
        return new Operand.ValueRef(t.text());
    }

    /** The right-hand side of SET: an operand, or two joined by + or -. */
    private Operand parseSetValue() {
        Operand left = parseOperand(true);
        Token t = peek();
        if (t.is(Type.PLUS) || t.is(Type.MINUS)) {
            next();
            operatorCount++;
            return new Operand.Arithmetic(t.is(Type.PLUS), left, parseOperand(true));
        }
        return left;
    }

    private List<Path> parseProjection() {
        List<Path> paths = new ArrayList<>();
        paths.add(parsePath());
        while (peek().is(Type.COMMA)) {
            next();
            paths.add(parsePath());
        }
        return paths;
    }

    // ---- tokens -------------------------------------------------------------------------------

    private Token peek() {
        return tokens.get(significant[pos]);
    }

    private Token peekAhead(int n) {
        int i = Math.min(pos + n, significant.length - 1);
        return tokens.get(significant[i]);
    }

    private Token next() {
        consumed = pos;
        Token t = tokens.get(significant[pos]);
        if (pos < significant.length - 1) pos++;
        return t;
    }

    private void expect(Type type) {
        if (!peek().is(type)) throw error();
        next();
    }

    private void enter() {
        if (++depth > MAX_DEPTH) throw errorAt(Math.max(0, pos - 1));
    }

    private SyntaxError error() {
        return errorAt(pos);
    }

    private SyntaxError errorAt(int significantIndex) {
        return new SyntaxError(significant[significantIndex]);
    }

    /** DynamoDB's syntax error for the token at {@code index} (see the class comment). */
    private DynamoDbException syntaxError(int index) {
        Token offending = tokens.get(index);
        int startIndex = index;
        if (index > 0) {
            startIndex = index - 1;
            if (tokens.get(startIndex).is(Type.WHITESPACE) && startIndex > 0) startIndex--;
        }
        int end;
        if (offending.is(Type.EOF)) {
            end = text.length();
        } else {
            int k = index + 1;
            if (tokens.get(k).is(Type.EOF)) {
                end = offending.end();
            } else {
                if (tokens.get(k).is(Type.WHITESPACE) && !tokens.get(k + 1).is(Type.EOF)) k++;
                end = tokens.get(k).end();
            }
        }
        String near = text.substring(tokens.get(startIndex).start(), end);
        return DynamoDbException.validation(kind.errorPrefix() + "Syntax error; token: \"" + offending.text()
                + "\", near: \"" + near + "\"");
    }
}

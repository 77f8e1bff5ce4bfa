package io.stator.core.partiql;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.Condition.Comparator;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import io.stator.core.expression.UpdateAction;
import io.stator.core.model.AttributeValue;
import io.stator.core.model.DynamoNumber;
import io.stator.core.partiql.PartiqlLexer.Token;
import io.stator.core.partiql.PartiqlLexer.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A recursive-descent parser for PartiQL for DynamoDB: SELECT, INSERT, UPDATE and DELETE, one
 * statement each. Parameters ({@code ?}) are bound while parsing, so a statement comes out with
 * constants only and its WHERE clause is the expression language's {@link Condition}: the same
 * evaluator runs it as runs a FilterExpression or a ConditionExpression. What maps onto the
 * expression language:
 * <ul>
 * <li>{@code a IS MISSING} is {@code attribute_not_exists(a)}, {@code IS NOT MISSING} is
 *     {@code attribute_exists(a)};</li>
 * <li>{@code a IS NULL} is {@code attribute_type(a, 'NULL')}: a value of type NULL (an open
 *     question whether DynamoDB also counts a missing attribute as NULL, as PartiQL's own
 *     semantics would);</li>
 * <li>{@code x NOT BETWEEN}, {@code NOT IN} are NOT around the positive form;</li>
 * <li>function names are case-insensitive in PartiQL and lowered to the expression language's.</li>
 * </ul>
 *
 * <p>Error texts: the envelope and most details are DynamoDB Local's (its
 * {@code ValidationExceptionMessages}, decompiled, which matches what is recorded from DynamoDB:
 * "Statement wasn't well formed, can't be processed: Expected data manipulation" and
 * "... Unexpected keyword"). DynamoDB's parser also reports the token's line and column in some
 * cases; what exactly is not known, so Stator says only "Unexpected token" or "Unexpected
 * keyword" after the envelope.
 *
 * <p>Nesting is limited to {@link #MAX_DEPTH} levels so that no statement can exhaust the stack.
 */
public final class PartiqlParser {

    /** Deeper nesting of parentheses, NOT, literals or function arguments is a syntax error. */
    static final int MAX_DEPTH = 256;

    private static final Set<String> KEYWORDS = Set.of("SELECT", "FROM", "WHERE", "INSERT", "INTO", "VALUE",
            "VALUES", "UPDATE", "SET", "REMOVE", "DELETE", "AND", "OR", "NOT", "BETWEEN", "IN", "IS", "NULL",
            "MISSING", "TRUE", "FALSE", "ORDER", "BY", "ASC", "DESC", "RETURNING", "EXISTS", "LIMIT", "AS", "AT",
            "GROUP", "HAVING", "JOIN", "ON", "UNION", "DISTINCT", "LIKE", "CASE", "WHEN", "THEN", "ELSE", "END");

    /** The functions a condition may call, with their argument counts. */
    private static final Map<String, Integer> FUNCTIONS = Map.of("begins_with", 2, "contains", 2,
            "attribute_type", 2, "size", 1, "attribute_exists", 1, "attribute_not_exists", 1);

    /**
     * The functions SET may call (UpdateApplier's): the expression language's, and PartiQL's
     * set_add and set_delete (DynamoDB's UPDATE reference: they add values to, or remove them
     * from, a number or string set).
     */
    private static final Map<String, Integer> UPDATE_FUNCTIONS = Map.of("list_append", 2, "if_not_exists", 2,
            "set_add", 2, "set_delete", 2);

    private final List<Token> tokens;
    private final List<AttributeValue> parameters;
    private int pos;
    private int parameterCount;
    private int depth;

    /**
     * An error found by a check DynamoDB makes once the statement has parsed (an alias, an index
     * on a write): raised only if no syntax error comes first.
     */
    private DynamoDbException afterParse;

    private PartiqlParser(String text, List<AttributeValue> parameters) {
        this.tokens = PartiqlLexer.tokenize(text);
        this.parameters = parameters == null ? List.of() : parameters;
        for (Token t : tokens) {
            // A '#' comment or an unterminated block comment cannot be read at all: DynamoDB
            // answers the envelope with nothing after it, as recorded by dynamodb-conformance.
            if (t.is(Type.UNKNOWN) && (t.text().equals("#") || t.text().equals("/*"))) throw malformed("");
        }
    }

    /**
     * Parses one statement and binds its parameters.
     *
     * @param parameters the request's Parameters, in the order of the {@code ?}s; null when none
     * @throws DynamoDbException a ValidationException, worded as DynamoDB words it
     */
    public static Statement parse(String text, List<AttributeValue> parameters) {
        return new PartiqlParser(text, parameters).statement();
    }

    private Statement statement() {
        Token first = peek();
        Statement s;
        if (first.isWord("SELECT")) s = select();
        else if (first.isWord("INSERT")) s = insert();
        else if (first.isWord("UPDATE")) s = update();
        else if (first.isWord("DELETE")) s = delete();
        else if (first.isWord("EXISTS")) s = exists();
        else throw malformed("Expected data manipulation");
        if (peek().is(Type.SEMICOLON)) next();
        if (!peek().is(Type.EOF)) throw leftover();
        if (afterParse != null) throw afterParse;
        // Fewer values than ?s fail where the missing one is used; more fail here. DynamoDB Local
        // ignores the extra ones, but the text says the counts must match, moto refuses any
        // difference, and a value that binds nothing is a caller's mistake better told than
        // silently dropped (a hostile probe of Stator took the silence for a fault).
        if (parameterCount != parameters.size()) throw parameterCountMismatch();
        return s;
    }

    private static DynamoDbException parameterCountMismatch() {
        // DynamoDB Local's text (ValidationExceptionMessages.PARAMETERS_IN_STATEMENT_AND_PARAMETERS_IN_REQUEST).
        return DynamoDbException.validation("Number of parameters in request and statement don't match.");
    }

    // ---- statements ---------------------------------------------------------------------------

    private Statement.Select select() {
        next();
        List<Path> projection = null;
        if (peek().is(Type.STAR)) {
            next();
            if (peek().is(Type.COMMA)) {
                throw DynamoDbException.validation("Other attributes should not be present in the projection when '*' is used.");
            }
        } else {
            projection = new ArrayList<>();
            projection.add(path());
            while (peek().is(Type.COMMA)) {
                next();
                if (peek().is(Type.STAR)) {
                    throw DynamoDbException.validation("Other attributes should not be present in the projection when '*' is used.");
                }
                projection.add(path());
            }
        }
        expectWord("FROM");
        String table = identifier();
        String index = null;
        if (peek().is(Type.DOT)) {
            next();
            index = identifier();
            if (peek().is(Type.DOT)) throw DynamoDbException.validation("A path may contain at most 2 components in the FROM clause");
        }
        alias();
        Condition where = null;
        if (peek().isWord("WHERE")) {
            next();
            where = condition();
        }
        Path orderBy = null;
        boolean descending = false;
        if (peek().isWord("ORDER")) {
            next();
            expectWord("BY");
            orderBy = path();
            if (peek().isWord("ASC")) {
                next();
            } else if (peek().isWord("DESC")) {
                next();
                descending = true;
            }
            // ORDER BY ahead of WHERE is a leftover token (as recorded from DynamoDB by
            // dynamodb-conformance), not a missing WHERE.
            if (where == null && peek().isWord("WHERE")) throw leftover();
            if (where == null) throw DynamoDbException.validation("Must have WHERE clause in the statement when using ORDER BY clause.");
        }
        return new Statement.Select(projection, table, index, where, orderBy, descending);
    }

    /** {@code EXISTS(SELECT ...)}: a transaction's condition check (whether it may stand is the front end's call). */
    private Statement.Exists exists() {
        next();
        expect(Type.LPAREN);
        if (!peek().isWord("SELECT")) throw unexpected();
        Statement.Select select = select();
        expect(Type.RPAREN);
        return new Statement.Exists(select);
    }

    private Statement.Insert insert() {
        next();
        expectWord("INTO");
        String table = identifier();
        if (peek().is(Type.DOT)) {
            // Recorded from DynamoDB by dynamodb-conformance as containing "FROM clause may only
            // contain a single table name", whether or not the index exists; the rest is DynamoDB
            // Local's wording (DML_INVALID_FROM).
            throw DynamoDbException.validation(
                    "FROM clause may only contain a single table name in data manipulation statements");
        }
        // An alias before VALUE is a leftover token, as recorded from DynamoDB by dynamodb-conformance.
        if (peek().is(Type.QUOTED) || (peek().is(Type.WORD) && !isKeyword(peek()))) throw leftover();
        if (peek().isWord("VALUES")) {
            throw DynamoDbException.validation("Unsupported operation: Inserting multiple items in a single statement is not supported, use \"INSERT INTO tableName VALUE item\" instead");
        }
        expectWord("VALUE");
        if (!peek().is(Type.LBRACE) && !peek().is(Type.PARAMETER)) {
            throw DynamoDbException.validation("Unsupported format in item expression. Please use struct format {...} to express item values for insert statement.");
        }
        AttributeValue item = literal();
        if (!(item instanceof AttributeValue.M m)) {
            throw DynamoDbException.validation("Unsupported format in item expression. Please use struct format {...} to express item values for insert statement.");
        }
        if (peek().isWord("RETURNING")) throw DynamoDbException.validation("RETURNING is not supported in INSERT");
        return new Statement.Insert(table, m.values());
    }

    private Statement.Update update() {
        next();
        String table = identifier();
        noIndexOnWrite();
        alias();
        List<UpdateAction> actions = new ArrayList<>();
        while (peek().isWord("SET") || peek().isWord("REMOVE")) {
            boolean set = next().isWord("SET");
            do {
                Path target = path();
                if (set) {
                    expect(Type.EQ);
                    actions.add(new UpdateAction.Set(target, setValue()));
                } else {
                    actions.add(new UpdateAction.Remove(target));
                }
            } while (peek().is(Type.COMMA) && next() != null);
        }
        if (actions.isEmpty()) throw unexpected();
        expectWord("WHERE");
        Condition where = condition();
        return new Statement.Update(table, actions, where, returning(false));
    }

    private Statement.Delete delete() {
        next();
        expectWord("FROM");
        String table = identifier();
        noIndexOnWrite();
        alias();
        expectWord("WHERE");
        Condition where = condition();
        return new Statement.Delete(table, where, returning(true));
    }

    /**
     * A table alias ({@code "t" x}, {@code "t" AS x}): parsed, then refused once the statement has
     * parsed, with "Aliasing is not supported" (as recorded from DynamoDB by dynamodb-conformance).
     */
    private void alias() {
        boolean as = peek().isWord("AS");
        Token t = as ? peekAhead(1) : peek();
        if (!t.is(Type.QUOTED) && !(t.is(Type.WORD) && !isKeyword(t))) {
            if (as) {
                next();
                throw unexpected();
            }
            return;
        }
        if (as) next();
        next();
        if (afterParse == null) afterParse = DynamoDbException.validation("Aliasing is not supported");
    }

    /**
     * An index after UPDATE's or DELETE's table: grammatical, and refused once the statement has
     * parsed, with "This operation is not supported on an index" (as recorded from DynamoDB by
     * dynamodb-conformance).
     */
    private void noIndexOnWrite() {
        if (!peek().is(Type.DOT)) return;
        next();
        identifier();
        if (peek().is(Type.DOT)) throw DynamoDbException.validation("A path may contain at most 2 components in the FROM clause");
        if (afterParse == null) afterParse = DynamoDbException.validation("This operation is not supported on an index");
    }

    /** {@code RETURNING (ALL|MODIFIED) (OLD|NEW) *}; DELETE allows only ALL OLD. */
    private Statement.Returning returning(boolean delete) {
        if (!peek().isWord("RETURNING")) return Statement.Returning.NONE;
        next();
        int at = pos;
        Token which = next();
        Token age = next();
        boolean all = which.isWord("ALL");
        if (!(all || which.isWord("MODIFIED")) || !(age.isWord("OLD") || age.isWord("NEW"))) {
            pos = at;
            throw unexpected();
        }
        if (!peek().is(Type.STAR)) {
            throw DynamoDbException.validation("Expected '*' after ( MODIFIED | ALL ) ( NEW | OLD ) in RETURNING clause");
        }
        next();
        boolean old = age.isWord("OLD");
        if (delete && !(all && old)) {
            throw DynamoDbException.validation("Invalid returning clause: RETURNING " + (all ? "ALL" : "MODIFIED") + " "
                    + (old ? "OLD" : "NEW") + " *. Only RETURNING ALL OLD * is allowed in DELETE statements.");
        }
        return all ? (old ? Statement.Returning.ALL_OLD : Statement.Returning.ALL_NEW)
                : (old ? Statement.Returning.MODIFIED_OLD : Statement.Returning.MODIFIED_NEW);
    }

    // ---- conditions ---------------------------------------------------------------------------

    private Condition condition() {
        Condition left = and();
        while (peek().isWord("OR")) {
            next();
            left = new Condition.Or(left, and());
        }
        return left;
    }

    private Condition and() {
        Condition left = not();
        while (peek().isWord("AND")) {
            next();
            left = new Condition.And(left, not());
        }
        return left;
    }

    private Condition not() {
        if (peek().isWord("NOT")) {
            next();
            enter();
            Condition c = new Condition.Not(not());
            depth--;
            return c;
        }
        return predicate();
    }

    /** Where predicate() reads its left operand: there a condition function may stand alone. */
    private int predicateStart = -1;

    private boolean conditionExpected(int at) {
        return at == predicateStart;
    }

    private Condition predicate() {
        if (peek().is(Type.LPAREN)) {
            // "(" opens a condition here: an operand in parentheses is not part of the dialect.
            next();
            enter();
            Condition inner = condition();
            expect(Type.RPAREN);
            depth--;
            return inner;
        }
        predicateStart = pos;
        Operand left = operand();
        predicateStart = -1;
        Token t = peek();
        Comparator comparator = comparator(t);
        boolean conditionFunction = left instanceof Operand.FunctionCall f && !f.name().equals("size");
        if (comparator != null) {
            if (conditionFunction) throw unexpected();
            next();
            if (peek().isWord("MISSING")) throw DynamoDbException.validation("MISSING must be compared using IS operator");
            Operand right = operand();
            if (comparator != Comparator.EQ && comparator != Comparator.NE) {
                ordered(t.text(), left);
                ordered(t.text(), right);
            }
            return new Condition.Comparison(comparator, left, right);
        }
        boolean negated = false;
        if (t.isWord("NOT") && (peekAhead(1).isWord("BETWEEN") || peekAhead(1).isWord("IN"))) {
            next();
            negated = true;
            t = peek();
        }
        Condition c = null;
        if (t.isWord("BETWEEN")) {
            next();
            Operand lower = operand();
            expectWord("AND");
            Operand upper = operand();
            for (Operand o : List.of(left, lower, upper)) ordered("BETWEEN", o);
            c = new Condition.Between(left, lower, upper);
        } else if (t.isWord("IN")) {
            next();
            c = in(left);
        } else if (t.isWord("IS") && !negated) {
            next();
            boolean not = false;
            if (peek().isWord("NOT")) {
                next();
                not = true;
            }
            int at = pos;
            Token what = next();
            if (!(left instanceof Operand.PathOperand)) {
                throw DynamoDbException.validation("The left hand side argument to IS must be a Variable Reference, Literal, or Path");
            }
            if (what.isWord("MISSING")) {
                c = new Condition.Function(new Operand.FunctionCall(not ? "attribute_exists" : "attribute_not_exists",
                        List.of(left)));
                not = false;
            } else if (what.isWord("NULL")) {
                c = new Condition.Function(new Operand.FunctionCall("attribute_type",
                        List.of(left, new Operand.Constant(new AttributeValue.S("NULL")))));
            } else {
                pos = at;
                throw unexpected();
            }
            if (not) c = new Condition.Not(c);
        } else if (left instanceof Operand.FunctionCall call && !call.name().equals("size") && !negated) {
            return new Condition.Function(call);
        }
        if (c == null || conditionFunction) throw unexpected();
        return negated ? new Condition.Not(c) : c;
    }

    /**
     * An ordering operator's constant operand must be of an ordered type (S, N, B): checked for
     * the statement, not per item, and raised once it has parsed. The message is as recorded from
     * DynamoDB by dynamodb-conformance (the operator as written, the operand's type).
     */
    private void ordered(String operator, Operand operand) {
        if (afterParse != null || !(operand instanceof Operand.Constant c)) return;
        AttributeValue v = c.value();
        if (v instanceof AttributeValue.S || v instanceof AttributeValue.N || v instanceof AttributeValue.B) return;
        afterParse = DynamoDbException.validation("Incorrect operand type for operator or function; operator or function: "
                + operator + ", operand type: " + v.type());
    }

    /** {@code IN (a, b)} or {@code IN [a, b]}: constants only (DynamoDB's IN takes a sequence). */
    private Condition in(Operand left) {
        Type close;
        if (peek().is(Type.LPAREN)) close = Type.RPAREN;
        else if (peek().is(Type.LBRACKET)) close = Type.RBRACKET;
        else throw DynamoDbException.validation(INVALID_IN);
        next();
        if (!(left instanceof Operand.PathOperand) || peek().is(close)) throw DynamoDbException.validation(INVALID_IN);
        List<Operand> candidates = new ArrayList<>();
        candidates.add(new Operand.Constant(literal()));
        while (peek().is(Type.COMMA)) {
            next();
            candidates.add(new Operand.Constant(literal()));
        }
        expect(close);
        return new Condition.In(left, candidates);
    }

    private static final String INVALID_IN = "IN operator must have a left hand argument of type Variable Reference and"
            + " right hand argument of type Seq with at least one member";

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

    // ---- operands and values ------------------------------------------------------------------

    /** A path, a function call, or a literal (a parameter included). */
    private Operand operand() {
        Token t = peek();
        if (t.is(Type.WORD) && peekAhead(1).is(Type.LPAREN) && !isKeyword(t)) {
            int at = pos;
            Operand.FunctionCall call = functionCall(FUNCTIONS);
            // Only size() has a value; the others are conditions, allowed only where a condition is.
            if (!call.name().equals("size") && !conditionExpected(at)) throw unexpectedAt(at);
            return call;
        }
        if (t.is(Type.QUOTED) || (t.is(Type.WORD) && !isKeyword(t))) return new Operand.PathOperand(path());
        return new Operand.Constant(literal());
    }

    /** The value of SET: an operand, or two joined by + or -. */
    private Operand setValue() {
        Operand left = updateOperand();
        if (peek().is(Type.PLUS) || peek().is(Type.MINUS)) {
            boolean plus = next().is(Type.PLUS);
            return new Operand.Arithmetic(plus, left, updateOperand());
        }
        return left;
    }

    private Operand updateOperand() {
        Token t = peek();
        if (t.is(Type.WORD) && peekAhead(1).is(Type.LPAREN) && !isKeyword(t)) return functionCall(UPDATE_FUNCTIONS);
        return operand();
    }

    private Operand.FunctionCall functionCall(Map<String, Integer> known) {
        String name = next().text().toLowerCase(Locale.ROOT);
        Integer arity = known.get(name);
        if (arity == null) throw DynamoDbException.validation("Unrecognized function: " + name);
        expect(Type.LPAREN);
        enter();
        List<Operand> args = new ArrayList<>();
        args.add(known == UPDATE_FUNCTIONS ? updateOperand() : operand());
        while (peek().is(Type.COMMA)) {
            next();
            args.add(known == UPDATE_FUNCTIONS ? updateOperand() : operand());
        }
        expect(Type.RPAREN);
        depth--;
        if (args.size() != arity) throw unexpectedAt(pos - 1);
        return new Operand.FunctionCall(name, args);
    }

    /** A document path: an identifier, then {@code .name}, {@code ."name"} or {@code [n]}. */
    private Path path() {
        List<Path.Element> elements = new ArrayList<>();
        if (peek().is(Type.LBRACKET)) throw DynamoDbException.validation("A path cannot start with a list index");
        elements.add(new Path.Name(identifier(), false));
        while (true) {
            if (peek().is(Type.DOT)) {
                next();
                elements.add(new Path.Name(identifier(), false));
            } else if (peek().is(Type.LBRACKET)) {
                next();
                Token index = next();
                if (!index.is(Type.NUMBER) || !index.text().chars().allMatch(Character::isDigit)) {
                    throw DynamoDbException.validation("Unexpected path component");
                }
                int value;
                try {
                    value = Integer.parseInt(index.text());
                } catch (NumberFormatException e) {
                    throw DynamoDbException.validation("List index is not within the allowable range; index: [" + index.text() + "]");
                }
                expect(Type.RBRACKET);
                elements.add(new Path.Index(value));
            } else {
                return new Path(elements);
            }
        }
    }

    /** A table, index or attribute name: "quoted" (any text) or a bare word that is no keyword. */
    private String identifier() {
        Token t = peek();
        if (t.is(Type.QUOTED)) {
            if (t.text().isEmpty()) throw DynamoDbException.validation("Path component cannot be an empty string");
            next();
            return t.text();
        }
        if (t.is(Type.WORD) && !isKeyword(t)) {
            next();
            return t.text();
        }
        throw unexpected();
    }

    /** A literal value: 'string', number, TRUE, FALSE, NULL, {...}, [...], <<...>>, or ?. */
    private AttributeValue literal() {
        int at = pos;
        Token t = next();
        switch (t.type()) {
            case STRING -> {
                return new AttributeValue.S(t.text());
            }
            case NUMBER -> {
                return new AttributeValue.N(DynamoNumber.parse(t.text()));
            }
            case MINUS -> {
                Token n = next();
                if (!n.is(Type.NUMBER)) {
                    pos = at + 1;
                    throw unexpected();
                }
                return new AttributeValue.N(DynamoNumber.parse("-" + n.text()));
            }
            case PARAMETER -> {
                if (parameterCount >= parameters.size()) throw parameterCountMismatch();
                return parameters.get(parameterCount++);
            }
            case WORD -> {
                if (t.isWord("TRUE")) return AttributeValue.BOOL.TRUE;
                if (t.isWord("FALSE")) return AttributeValue.BOOL.FALSE;
                if (t.isWord("NULL")) return AttributeValue.NULL.INSTANCE;
            }
            case LBRACE -> {
                enter();
                Map<String, AttributeValue> values = new LinkedHashMap<>();
                if (!peek().is(Type.RBRACE)) {
                    do {
                        int keyAt = pos;
                        Token key = next();
                        if (!key.is(Type.STRING) && !key.is(Type.QUOTED)) {
                            pos = keyAt;
                            throw unexpected();
                        }
                        expect(Type.COLON);
                        AttributeValue v = literal();
                        if (values.put(key.text(), v) != null) {
                            throw DynamoDbException.validation("Duplicate keys in tuple. Key: " + key.text() + " under ");
                        }
                    } while (peek().is(Type.COMMA) && next() != null);
                }
                expect(Type.RBRACE);
                depth--;
                return new AttributeValue.M(values);
            }
            case LBRACKET -> {
                enter();
                List<AttributeValue> values = new ArrayList<>();
                if (!peek().is(Type.RBRACKET)) {
                    do {
                        values.add(literal());
                    } while (peek().is(Type.COMMA) && next() != null);
                }
                expect(Type.RBRACKET);
                depth--;
                return new AttributeValue.L(values);
            }
            case LSET -> {
                return set();
            }
            default -> { }
        }
        pos = at;
        throw unexpected();
    }

    /** {@code <<a, b>>}: all strings (SS) or all numbers (NS); DynamoDB's "bags". */
    private AttributeValue set() {
        if (peek().is(Type.RSET)) throw DynamoDbException.validation("Empty bags are not supported");
        List<AttributeValue> members = new ArrayList<>();
        do {
            members.add(literal());
        } while (peek().is(Type.COMMA) && next() != null);
        expect(Type.RSET);
        if (members.stream().allMatch(v -> v instanceof AttributeValue.S)) {
            return new AttributeValue.SS(members.stream().map(v -> ((AttributeValue.S) v).value()).distinct().toList());
        }
        if (members.stream().allMatch(v -> v instanceof AttributeValue.N)) {
            return new AttributeValue.NS(members.stream().map(v -> ((AttributeValue.N) v).value()).distinct().toList());
        }
        if (members.stream().allMatch(v -> v instanceof AttributeValue.B)) {
            return new AttributeValue.BS(members.stream().map(v -> ((AttributeValue.B) v).value()).toList());
        }
        throw DynamoDbException.validation("Unsupported data type in Bag. DynamoDB only supports either numbers or strings in bags");
    }

    // ---- tokens -------------------------------------------------------------------------------

    private Token peek() {
        return tokens.get(pos);
    }

    private Token peekAhead(int n) {
        return tokens.get(Math.min(pos + n, tokens.size() - 1));
    }

    private Token next() {
        Token t = tokens.get(pos);
        if (pos < tokens.size() - 1) pos++;
        return t;
    }

    private void expect(Type type) {
        if (!peek().is(type)) throw unexpected();
        next();
    }

    private void expectWord(String word) {
        if (!peek().isWord(word)) throw unexpected();
        next();
    }

    private void enter() {
        if (++depth > MAX_DEPTH) throw unexpectedAt(Math.max(0, pos - 1));
    }

    private static boolean isKeyword(Token t) {
        return t.is(Type.WORD) && KEYWORDS.contains(t.text().toUpperCase(Locale.ROOT));
    }

    private DynamoDbException unexpected() {
        return unexpectedAt(pos);
    }

    /** A token after a complete statement; the detail is as recorded from DynamoDB by dynamodb-conformance. */
    private static DynamoDbException leftover() {
        return malformed("Unexpected token after expression");
    }

    private DynamoDbException unexpectedAt(int index) {
        return malformed(isKeyword(tokens.get(index)) ? "Unexpected keyword" : "Unexpected token");
    }

    private static DynamoDbException malformed(String detail) {
        return DynamoDbException.validation("Statement wasn't well formed, can't be processed: " + detail);
    }
}

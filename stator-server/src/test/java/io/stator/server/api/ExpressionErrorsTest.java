package io.stator.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.stator.server.testing.ItemTables;
import io.stator.server.testing.KeyShape;
import io.stator.server.testing.RawDynamoDb;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Invalid expressions and expression parameters across UpdateItem, PutItem, DeleteItem and
 * GetItem, each with DynamoDB's {@code __type} and exact message (texts and their sources in
 * docs/dynamodb/expressions.md and docs/dynamodb/dynamodb-errors.md section 9.6; where a text comes from one
 * source only, the case says so). Every limit is tried at its edge, which must be accepted, and
 * one past it. Requests are sent as raw JSON so that the wire {@code __type} is checked too.
 */
class ExpressionErrorsTest {

    private static final String VALIDATION = "com.amazon.coral.validate#ValidationException";
    private static final String UPDATE = "Invalid UpdateExpression: ";
    private static final String CONDITION = "Invalid ConditionExpression: ";
    private static final String PROJECTION = "Invalid ProjectionExpression: ";

    @RegisterExtension
    static final ItemTables db = new ItemTables();

    /**
     * One request: the action, the members besides TableName and Key (or Item) as JSON with
     * single quotes for double quotes, and DynamoDB's answer (null message: accepted).
     */
    record Case(String description, String action, String members, String message) {
        @Override public String toString() { return action + ": " + description; }
    }

    // ---- building request members -----------------------------------------------------------

    private static final String S = "{'S': 'x'}";
    private static final String N1 = "{'N': '1'}";
    private static final String N2 = "{'N': '2'}";
    private static final String BOOL = "{'BOOL': true}";
    private static final String SS = "{'SS': ['x']}";
    private static final String L = "{'L': []}";

    private static String member(String name, String value) {
        return "'" + name + "': '" + value + "'";
    }

    private static String update(String expression) { return member("UpdateExpression", expression); }

    private static String condition(String expression) { return member("ConditionExpression", expression); }

    private static String projection(String expression) { return member("ProjectionExpression", expression); }

    /** ExpressionAttributeValues from :name, JSON value pairs. */
    private static String values(String... pairs) {
        return "'ExpressionAttributeValues': {" + pairs(pairs, false) + "}";
    }

    /** ExpressionAttributeNames from #name, name pairs. */
    private static String names(String... pairs) {
        return "'ExpressionAttributeNames': {" + pairs(pairs, true) + "}";
    }

    private static String pairs(String[] pairs, boolean quoteValues) {
        List<String> entries = new ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            entries.add("'" + pairs[i] + "': " + (quoteValues ? "'" + pairs[i + 1] + "'" : pairs[i + 1]));
        }
        return String.join(", ", entries);
    }

    private static String all(String... members) {
        return String.join(", ", members);
    }

    private static Case refused(String description, String action, String members, String message) {
        return new Case(description, action, members, message);
    }

    private static Case accepted(String description, String action, String members) {
        return new Case(description, action, members, null);
    }

    // ---- the cases --------------------------------------------------------------------------

    static List<Case> cases() {
        List<Case> c = new ArrayList<>();
        syntaxErrors(c);
        placeholders(c);
        functionsAndOperands(c);
        paths(c);
        parameters(c);
        limits(c);
        deepNesting(c);
        return c;
    }

    /** Syntax errors quote the first token that cannot be parsed and the text around it. */
    private static void syntaxErrors(List<Case> c) {
        // Recorded from DynamoDB (conformance suites, Scylla's comments, issue reports).
        c.add(refused("not a clause", "UpdateItem", update("INVALID SYNTAX HERE"),
                UPDATE + "Syntax error; token: \"INVALID\", near: \"INVALID SYNTAX\""));
        c.add(refused("punctuation", "GetItem", projection("!!! INVALID !!!"),
                PROJECTION + "Syntax error; token: \"!\", near: \"!!\""));
        c.add(refused("name starting with _", "UpdateItem", all(update("SET _123 = :v"), values(":v", S)),
                UPDATE + "Syntax error; token: \"_\", near: \"SET _123\""));
        c.add(refused("lone colon", "UpdateItem", all(update("ADD hits : incr"), values(":incr", N1)),
                UPDATE + "Syntax error; token: \":\", near: \"hits : incr\""));
        c.add(refused("an update as a condition", "PutItem",
                all(condition("ADD #v :i"), names("#v", "v"), values(":i", N1)),
                CONDITION + "Syntax error; token: \"ADD\", near: \"ADD #v\""));
        // Modelled on DynamoDB by moto's tests.
        c.add(refused("number literal", "UpdateItem", update("SET attrName = 3"),
                UPDATE + "Syntax error; token: \"3\", near: \"= 3\""));
        c.add(refused("unclosed index", "UpdateItem", update("SET MyStr[ 3"),
                UPDATE + "Syntax error; token: \"<EOF>\", near: \"3\""));
        c.add(refused("name after placeholder", "UpdateItem", all(update("SET #a a = :v"), names("#a", "a"), values(":v", S)),
                UPDATE + "Syntax error; token: \"a\", near: \"#a a =\""));
        // A list index past the int range (issue 36): refused once parsed, DynamoDB's text (AWS's
        // DAX client words it so); a syntax error elsewhere comes first.
        c.add(refused("list index past the int range", "GetItem", projection("a[2147483648]"),
                PROJECTION + "List index is not within the allowable range; index: [2147483648]"));
        c.add(refused("huge list index in an update", "UpdateItem", all(update("SET a[99999999999999] = :v"),
                values(":v", S)), UPDATE + "List index is not within the allowable range; index: [99999999999999]"));
        c.add(accepted("the largest list index", "GetItem", projection("a[2147483647]")));
        c.add(refused("huge list index then a syntax error", "GetItem", projection("a[99999999999999] !"),
                PROJECTION + "Syntax error; token: \"!\", near: \"] !\""));
        c.add(refused("function in REMOVE", "UpdateItem", update("REMOVE if_not_exists(a,b)"),
                UPDATE + "Syntax error; token: \"(\", near: \"if_not_exists(a\""));
        c.add(refused("two values in DELETE", "UpdateItem", all(update("DELETE attr :val foobar"), values(":val", SS)),
                UPDATE + "Syntax error; token: \"foobar\", near: \":val foobar\""));
        c.add(refused("two plus signs", "UpdateItem", all(update("SET MyStr = NoExist + + :_val "), values(":_val", N1)),
                UPDATE + "Syntax error; token: \"+\", near: \"+ + :_val\""));
        c.add(refused("leading whitespace kept", "UpdateItem", update("  RESET NonExistent value"),
                UPDATE + "Syntax error; token: \"RESET\", near: \"  RESET NonExistent\""));
        c.add(refused("unclosed index, whitespace kept", "UpdateItem", update("SET MyStr[ 3 "),
                UPDATE + "Syntax error; token: \"<EOF>\", near: \"3 \""));
        c.add(refused("parenthesis in an index", "UpdateItem", update("SET MyStr[3 )"),
                UPDATE + "Syntax error; token: \")\", near: \"3 )\""));
        c.add(refused("index as a name", "UpdateItem", update("SET 2"),
                UPDATE + "Syntax error; token: \"2\", near: \"SET 2\""));
        c.add(refused("unclosed parenthesis", "UpdateItem", all(update("SET MyStr = (:_val"), values(":_val", S)),
                UPDATE + "Syntax error; token: \"<EOF>\", near: \":_val\""));
        c.add(refused("bracket as a value", "UpdateItem", all(update("SET MyStr = [:_val  "), values(":_val", S)),
                UPDATE + "Syntax error; token: \"[\", near: \"= [:_val\""));
        c.add(refused("index inside an index", "UpdateItem", update("SET a [  [2] ]. b = 5"),
                UPDATE + "Syntax error; token: \"[\", near: \"[  [2\""));
        c.add(refused("two indexes in one", "UpdateItem", update("SET a [2 1]. b = 5"),
                UPDATE + "Syntax error; token: \"1\", near: \"2 1]\""));
        c.add(refused("plus in REMOVE", "UpdateItem", update("REMOVE NoExist + "),
                UPDATE + "Syntax error; token: \"+\", near: \"NoExist + \""));
        c.add(refused("a path as ADD's value", "UpdateItem", update("ADD attr val foobar"),
                UPDATE + "Syntax error; token: \"val\", near: \"attr val foobar\""));
        c.add(refused("number after a path", "UpdateItem", update("SET path = VALUE 1"),
                UPDATE + "Syntax error; token: \"1\", near: \"VALUE 1\""));
    }

    private static void placeholders(List<Case> c) {
        c.add(refused("undefined name", "PutItem", all(condition("#a = :v"), values(":v", S)),
                CONDITION + "An expression attribute name used in the document path is not defined; attribute name: #a"));
        c.add(refused("undefined value", "UpdateItem", update("SET a = :nope"),
                UPDATE + "An expression attribute value used in expression is not defined; attribute value: :nope"));
        c.add(refused("undefined name reported before an earlier undefined value", "UpdateItem",
                all(update("SET a = :y, #x = :v"), values(":v", S)),
                UPDATE + "An expression attribute name used in the document path is not defined; attribute name: #x"));
        c.add(refused("unused names", "DeleteItem", all(condition("attribute_exists(a)"), names("#a", "a", "#b", "b")),
                "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a, #b}"));
        c.add(refused("unused value", "UpdateItem", all(update("SET a = :v"), values(":v", S, ":unused", S)),
                "Value provided in ExpressionAttributeValues unused in expressions: keys: {:unused}"));
        c.add(refused("unused name with a projection", "GetItem", all(projection("a"), names("#b", "b")),
                "Value provided in ExpressionAttributeNames unused in expressions: keys: {#b}"));
        c.add(refused("reserved word in any case", "DeleteItem", all(condition("abOrT = :v"), values(":v", S)),
                CONDITION + "Attribute name is a reserved keyword; reserved keyword: abOrT"));
        c.add(refused("reserved word", "UpdateItem", all(update("SET status = :v"), values(":v", S)),
                UPDATE + "Attribute name is a reserved keyword; reserved keyword: status"));
        c.add(refused("reserved word nested", "GetItem", projection("a.name"),
                PROJECTION + "Attribute name is a reserved keyword; reserved keyword: name"));
        c.add(accepted("reserved word through a placeholder", "PutItem",
                all(condition("attribute_not_exists(#s)"), names("#s", "status"))));
    }

    private static void functionsAndOperands(List<Case> c) {
        c.add(refused("function name in the wrong case", "PutItem", condition("attRIbute_exIsts(a)"),
                CONDITION + "Invalid function name; function: attRIbute_exIsts"));
        c.add(refused("unknown update function", "UpdateItem", all(update("SET a = LIST_APPEND(a, :l)"), values(":l", L)),
                UPDATE + "Invalid function name; function: LIST_APPEND"));
        c.add(refused("condition function as an operand", "PutItem", condition("a = attribute_exists(b)"),
                CONDITION + "The function is not allowed to be used this way in an expression; function: attribute_exists"));
        // An update function in a condition: known, misplaced (DynamoDB's text, as clients' tests record it).
        c.add(refused("if_not_exists in a condition", "PutItem",
                all(condition("if_not_exists(a, :v) = :v"), values(":v", S)),
                CONDITION + "The function is not allowed to be used this way in an expression; function: if_not_exists"));
        c.add(refused("size as a condition", "PutItem", condition("size(a)"),
                CONDITION + "The function is not allowed to be used this way in an expression; function: size"));
        c.add(refused("nested list_append", "UpdateItem",
                all(update("SET a = list_append(list_append(a, :l), :l)"), values(":l", L)),
                UPDATE + "The function is not allowed to be used this way in an expression; function: list_append"));
        c.add(refused("too many operands", "PutItem", condition("attribute_exists(a, b)"),
                CONDITION + "Incorrect number of operands for operator or function; operator or function: "
                        + "attribute_exists, number of operands: 2"));
        c.add(refused("too few operands", "UpdateItem", update("SET a = if_not_exists(a)"),
                UPDATE + "Incorrect number of operands for operator or function; operator or function: "
                        + "if_not_exists, number of operands: 1"));
        c.add(refused("value where a path is needed", "PutItem", all(condition("attribute_exists(:v)"), values(":v", S)),
                CONDITION + "Operator or function requires a document path; operator or function: attribute_exists"));
        c.add(refused("value where if_not_exists needs a path", "UpdateItem",
                all(update("SET a = if_not_exists(:v, a)"), values(":v", S)),
                UPDATE + "Operator or function requires a document path; operator or function: if_not_exists"));
        c.add(refused("begins_with a number", "DeleteItem", all(condition("begins_with(a, :n)"), values(":n", N1)),
                CONDITION + "Incorrect operand type for operator or function; operator or function: begins_with, "
                        + "operand type: N"));
        c.add(refused("size of a number", "PutItem", all(condition("size(:n) = :n"), values(":n", N1)),
                CONDITION + "Incorrect operand type for operator or function; operator or function: size, operand type: N"));
        c.add(refused("attribute_type of a number", "PutItem", all(condition("attribute_type(a, :n)"), values(":n", N1)),
                CONDITION + "Incorrect operand type for operator or function; operator or function: attribute_type, "
                        + "operand type: N"));
        c.add(refused("attribute_type with a path for the type", "PutItem", condition("attribute_type(a, b)"),
                CONDITION + "Incorrect operand type for operator or function; operator or function: attribute_type, "
                        + "operand type: {NS,SS,L,BS,N,M,B,BOOL,NULL,S}"));
        c.add(refused("no such type", "PutItem", all(condition("attribute_type(a, :t)"), values(":t", "{'S': 'DOG'}")),
                CONDITION + "Invalid attribute type name found; type: DOG, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}"));
        // Recorded by another emulator only (ExtendDB); DynamoDB's suites assert just a ValidationException.
        c.add(refused("ordering a boolean", "PutItem", all(condition("a < :t"), values(":t", BOOL)),
                CONDITION + "Incorrect operand type for operator or function; operator or function: <, operand type: BOOL"));
        c.add(refused("ADD of a string", "UpdateItem", all(update("ADD a :s"), values(":s", S)),
                UPDATE + "Incorrect operand type for operator or function; operator: ADD, operand type: STRING"));
        c.add(refused("ADD of a list", "UpdateItem", all(update("ADD a :l"), values(":l", L)),
                UPDATE + "Incorrect operand type for operator or function; operator: ADD, operand type: LIST"));
        c.add(refused("DELETE of a number", "UpdateItem", all(update("DELETE a :n"), values(":n", N1)),
                UPDATE + "Incorrect operand type for operator or function; operator: DELETE, operand type: NUMBER"));
        c.add(refused("adding a string", "UpdateItem", all(update("SET a = b + :s"), values(":s", S)),
                UPDATE + "Incorrect operand type for operator or function; operator or function: +, operand type: S"));
        c.add(refused("list_append of a string", "UpdateItem", all(update("SET a = list_append(a, :s)"), values(":s", S)),
                UPDATE + "Incorrect operand type for operator or function; operator or function: list_append, "
                        + "operand type: S"));
        c.add(refused("same path on both sides", "PutItem", condition("a = a"),
                CONDITION + "The first operand must be distinct from the remaining operands for this operator or "
                        + "function; operator: =, first operand: [a]"));
        c.add(refused("BETWEEN bounds of two types", "DeleteItem",
                all(condition("a BETWEEN :n AND :s"), values(":n", N1, ":s", S)),
                CONDITION + "The BETWEEN operator requires same data type for lower and upper bounds; lower bound "
                        + "operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:x}"));
        c.add(refused("BETWEEN bounds the wrong way round", "PutItem",
                all(condition("a BETWEEN :two AND :one"), values(":two", N2, ":one", N1)),
                CONDITION + "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; "
                        + "lower bound operand: AttributeValue: {N:2}, upper bound operand: AttributeValue: {N:1}"));
        c.add(accepted("BETWEEN bounds equal", "PutItem", all(condition("NOT a BETWEEN :one AND :one"), values(":one", N1))));
        // Bounds of a type without an order: refused as the comparators refuse it, not a failed condition (issue 36).
        c.add(refused("BETWEEN lists", "PutItem", all(condition("a BETWEEN :l AND :l"), values(":l", L)),
                CONDITION + "Incorrect operand type for operator or function; operator or function: BETWEEN, "
                        + "operand type: L"));
        c.add(refused("BETWEEN a path and a list", "DeleteItem", all(condition("a BETWEEN b AND :l"), values(":l", L)),
                CONDITION + "Incorrect operand type for operator or function; operator or function: BETWEEN, "
                        + "operand type: L"));
        c.add(refused("redundant parentheses", "PutItem", condition("((attribute_not_exists(pk)))"),
                CONDITION + "The expression has redundant parentheses;"));
        // A path continued after its parentheses: parsed, then refused as DynamoDB refuses it (issue 36).
        c.add(refused("a path continued after parentheses", "PutItem", all(condition("(a).d = :v"), values(":v", S)),
                CONDITION + "The expression has redundant parentheses;"));
    }

    private static void paths(List<Case> c) {
        String overlap = "Two document paths overlap with each other; must remove or rewrite one of these paths; ";
        c.add(refused("overlapping update paths", "UpdateItem", all(update("SET a = :v, a.b = :v"), values(":v", S)),
                UPDATE + overlap + "path one: [a], path two: [a, b]"));
        c.add(refused("conflicting update paths", "UpdateItem", all(update("SET a.b = :v, a[1] = :v"), values(":v", S)),
                UPDATE + "Two document paths conflict with each other; must remove or rewrite one of these paths; "
                        + "path one: [a, b], path two: [a, [1]]"));
        c.add(refused("overlapping projection", "GetItem", projection("a, a"),
                PROJECTION + overlap + "path one: [a], path two: [a]"));
        c.add(refused("repeated SET", "UpdateItem", all(update("SET a = :v SET b = :v"), values(":v", S)),
                UPDATE + "The \"SET\" section can only be used once in an update expression;"));
        c.add(refused("repeated remove, any case", "UpdateItem", all(update("remove a ADD b :n REMOVE c"), values(":n", N1)),
                UPDATE + "The \"REMOVE\" section can only be used once in an update expression;"));
        c.add(refused("updating the partition key", "UpdateItem", all(update("SET pk = :v"), values(":v", S)),
                "One or more parameter values were invalid: Cannot update attribute pk. This attribute is part of the key"));
        c.add(refused("projecting into the key", "GetItem", projection("pk.x"),
                "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed: Key: pk"));
    }

    private static void parameters(List<Case> c) {
        c.add(refused("legacy and expression parameters", "UpdateItem",
                all("'AttributeUpdates': {'a': {'Action': 'DELETE'}}", "'Expected': {'a': {'Exists': false}}",
                        update("REMOVE b"), condition("attribute_exists(b)")),
                "Can not use both expression and non-expression parameters in the same request: Non-expression "
                        + "parameters: {AttributeUpdates, Expected} Expression parameters: {UpdateExpression, "
                        + "ConditionExpression}"));
        c.add(refused("Expected with ConditionExpression", "PutItem",
                all("'Expected': {'a': {'Exists': false}}", condition("attribute_not_exists(a)")),
                "Can not use both expression and non-expression parameters in the same request: Non-expression "
                        + "parameters: {Expected} Expression parameters: {ConditionExpression}"));
        c.add(refused("AttributesToGet with ProjectionExpression", "GetItem",
                all("'AttributesToGet': ['a']", projection("a")),
                "Can not use both expression and non-expression parameters in the same request: Non-expression "
                        + "parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}"));
        c.add(refused("names without an expression", "PutItem", names("#a", "a"),
                "ExpressionAttributeNames can only be specified when using expressions"));
        c.add(refused("names without a projection", "GetItem", names("#a", "a"),
                "ExpressionAttributeNames can only be specified when using expressions"));
        c.add(refused("values without an expression", "UpdateItem", values(":v", S),
                "ExpressionAttributeValues can only be specified when using expressions: UpdateExpression and "
                        + "ConditionExpression are null"));
        c.add(refused("values without a condition", "DeleteItem", values(":v", S),
                "ExpressionAttributeValues can only be specified when using expressions: ConditionExpression is null"));
        c.add(refused("empty names", "PutItem", all(condition("attribute_exists(a)"), "'ExpressionAttributeNames': {}"),
                "ExpressionAttributeNames must not be empty"));
        c.add(refused("empty values", "UpdateItem", all(update("REMOVE a"), "'ExpressionAttributeValues': {}"),
                "ExpressionAttributeValues must not be empty"));
        c.add(refused("name key without #", "PutItem", all(condition("attribute_exists(a)"), names("a", "a")),
                "ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\""));
        c.add(refused("name key with a dash", "DeleteItem", all(condition("attribute_exists(#a-b)"), names("#a-b", "a")),
                "ExpressionAttributeNames contains invalid key: Syntax error; key: \"#a-b\""));
        // An empty name (issue 36; DynamoDB's text, as recorded by clients' tests).
        c.add(refused("empty attribute name", "GetItem", all("'ProjectionExpression': '#n'", names("#n", "")),
                "ExpressionAttributeNames contains invalid value: Empty attribute name for key #n"));
        c.add(refused("value key without :", "UpdateItem", all(update("SET a = :v"), values("v", S)),
                "ExpressionAttributeValues contains invalid key: Syntax error; key: \"v\""));
        c.add(refused("empty number set value", "DeleteItem", all(condition("a = :b"), values(":b", "{'NS': []}")),
                "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: An number "
                        + "set  may not be empty for key :b"));
        c.add(refused("value that is no number", "UpdateItem", all(update("SET a = :v"), values(":v", "{'N': 'x'}")),
                "ExpressionAttributeValues contains invalid value: The parameter cannot be converted to a numeric "
                        + "value: x for key :v"));
        c.add(refused("value without a type", "PutItem", all(condition("a = :v"), values(":v", "{}")),
                "ExpressionAttributeValues contains invalid value: Supplied AttributeValue is empty, must contain "
                        + "exactly one of the supported datatypes for key :v"));
        c.add(refused("empty condition", "PutItem", condition(""), CONDITION + "The expression can not be empty;"));
        c.add(refused("empty update", "UpdateItem", update(""), UPDATE + "The expression can not be empty;"));
        c.add(refused("empty projection", "GetItem", projection(""), PROJECTION + "The expression can not be empty;"));
    }

    /** Each limit at its edge (accepted) and one past it. */
    private static void limits(List<Case> c) {
        String prefix = "attribute_not_exists(x";
        String atLimit = prefix + "y".repeat(4096 - prefix.length() - 1) + ")";
        c.add(accepted("condition of 4096 bytes", "PutItem", condition(atLimit)));
        c.add(refused("condition of 4097 bytes", "PutItem", condition(atLimit.replace("(x", "(xy")),
                CONDITION + "Expression size has exceeded the maximum allowed size; expression size: 4097"));
        String update = "SET x" + "y".repeat(4096 - "SET x = :v".length()) + " = :v";
        c.add(accepted("update of 4096 bytes", "UpdateItem", all(update(update), values(":v", S))));
        c.add(refused("update of 4097 bytes", "UpdateItem", all(update(update.replace("SET x", "SET xy")), values(":v", S)),
                UPDATE + "Expression size has exceeded the maximum allowed size; expression size: 4097"));

        c.add(accepted("path 32 levels deep", "GetItem", projection("a" + ".b".repeat(31))));
        c.add(refused("path 33 levels deep", "GetItem", projection("a" + ".b".repeat(32)),
                PROJECTION + "The document path has too many nesting levels; nesting levels: 33"));
        c.add(accepted("update path 32 levels deep", "UpdateItem", update("REMOVE a" + "[0]".repeat(31))));
        c.add(refused("update path 33 levels deep", "UpdateItem", update("REMOVE a" + "[0]".repeat(32)),
                UPDATE + "The document path has too many nesting levels; nesting levels: 33"));

        c.add(accepted("IN with 100 operands", "PutItem", all(condition("NOT a IN (" + repeat(":v", ", ", 100) + ")"),
                values(":v", S))));
        c.add(refused("IN with 101 operands", "PutItem", all(condition("a IN (" + repeat(":v", ", ", 101) + ")"),
                values(":v", S)),
                CONDITION + "The IN operator is provided with too many operands; number of operands: 101"));

        // The count is the real one, as an issue report quotes DynamoDB: "number of operands: 163".
        c.add(refused("IN with 163 operands", "DeleteItem", all(condition("a IN (" + repeat(":v", ",", 163) + ")"),
                values(":v", S)),
                CONDITION + "The IN operator is provided with too many operands; number of operands: 163"));

        // n comparisons joined by AND or OR are 2n - 1 operators; NOT is one more.
        c.add(accepted("300 operators", "DeleteItem", all(condition("NOT " + repeat("a = :v", " OR ", 150)),
                values(":v", S))));
        c.add(refused("301 operators", "DeleteItem", all(condition(repeat("a = :v", " AND ", 151)), values(":v", S)),
                CONDITION + "The expression contains too many operators; operator count: 301"));
    }

    /**
     * Expressions nested as deep as 4 KB allows are parsed, and refused for what DynamoDB finds
     * wrong with them, not for their depth (Scylla's test_limits.py, observed against DynamoDB;
     * the messages for 1000 NOTs and for nested size() follow from the rules it states).
     */
    private static void deepNesting(List<Case> c) {
        c.add(accepted("299 operators nested 149 deep", "PutItem",
                condition("a<>b " + "or (a<>b ".repeat(149) + ")".repeat(149))));
        c.add(refused("909 operators nested 454 deep", "PutItem",
                condition("a<b " + "or (a<b ".repeat(454) + ")".repeat(454)),
                CONDITION + "The expression contains too many operators; operator count: 301"));
        c.add(refused("2046 parentheses", "PutItem", condition("(".repeat(2046) + "a<b" + ")".repeat(2046)),
                CONDITION + "The expression has redundant parentheses;"));
        c.add(refused("1000 NOTs", "PutItem", condition("not ".repeat(1000) + "a<b"),
                CONDITION + "The expression contains too many operators; operator count: 301"));
        c.add(refused("a function nested 1355 deep", "PutItem",
                condition("a < " + "f(".repeat(1355) + "b" + ")".repeat(1355)),
                CONDITION + "Invalid function name; function: f"));
        c.add(refused("size nested 680 deep", "PutItem",
                condition("a < " + "size(".repeat(680) + "b" + ")".repeat(680)),
                CONDITION + "Incorrect operand type for operator or function; operator or function: size, "
                        + "operand type: N"));
    }

    private static String repeat(String s, String separator, int times) {
        return String.join(separator, Collections.nCopies(times, s));
    }

    // ---- the test ---------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void invalidExpressionsGetDynamoDbsError(Case c) {
        RawDynamoDb raw = new RawDynamoDb(db.endpoint());
        KeyShape shape = ItemTables.ANY_SHAPE;
        String key = "{'pk': {'S': '" + shape.newKey().get(KeyShape.PARTITION_KEY).s() + "'}}";
        String body = "{" + member("TableName", db.table(shape)) + ", "
                + (c.action().equals("PutItem") ? "'Item': " : "'Key': ") + key
                + (c.members().isEmpty() ? "" : ", " + c.members()) + "}";

        RawDynamoDb.Reply reply = raw.call(c.action(), body.replace('\'', '"'));

        if (c.message() == null) {
            assertEquals(200, reply.status(), reply.body());
        } else {
            assertEquals(400, reply.status(), reply.body());
            assertEquals(VALIDATION, reply.type(), reply.body());
            assertEquals(c.message(), reply.message());
        }
    }
}

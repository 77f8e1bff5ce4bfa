package io.stator.server.access;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * One policy document in IAM's policy language, parsed: its statements, each with its effect,
 * principals (resource-based policies only), actions, resources and conditions. Immutable and
 * safe to share; {@link Evaluation} applies it to a request.
 *
 * <p>Parsing follows IAM's grammar (IAM User Guide, "Grammar of the IAM JSON policy language"):
 * {@code Version} and {@code Id} optional; {@code Statement} one object or a list of them; in
 * each, {@code Effect} (Allow or Deny; DynamoDB also takes "allow"), exactly one of
 * {@code Action}/{@code NotAction}, exactly one of {@code Resource}/{@code NotResource}, and for a
 * resource-based policy exactly one of {@code Principal}/{@code NotPrincipal}; an element's value
 * a string or a list of strings; {@code Condition} a map of operators to maps of keys to a value
 * or a list of values.
 */
public final class Policy {

    /** Identity-based policies (the --policies file) have no Principal; resource-based ones must. */
    public enum Kind { IDENTITY, RESOURCE }

    /** The policy language version whose features (policy variables) a document uses. */
    public static final String VERSION_2012 = "2012-10-17";
    public static final String VERSION_2008 = "2008-10-17";

    private final String version;
    private final List<Statement> statements;

    private Policy(String version, List<Statement> statements) {
        this.version = version;
        this.statements = List.copyOf(statements);
    }

    /** The Version element, or null when absent. */
    public String version() { return version; }

    public List<Statement> statements() { return statements; }

    /** Policy variables (${aws:username}) are substituted only in documents of the 2012 version. */
    boolean substitutesVariables() { return VERSION_2012.equals(version); }

    /**
     * A statement. Lists are as written; {@code principals} is null for identity-based policies.
     * Action names are kept as written and matched without regard to case, as IAM matches them.
     */
    public record Statement(String sid, boolean allow, List<String> principals, boolean notPrincipal,
                            List<String> actions, boolean notAction, List<String> resources, boolean notResource,
                            List<Condition> conditions) {}

    /**
     * One condition: an operator (with its set qualifier and IfExists suffix) applied to one key and
     * its values, which are ORed; conditions of a statement are ANDed.
     */
    public record Condition(Operator operator, Qualifier qualifier, boolean ifExists, String key, List<String> values) {}

    /** ForAllValues:, ForAnyValue: or neither. */
    public enum Qualifier { NONE, FOR_ALL_VALUES, FOR_ANY_VALUE }

    /** Parses a document; {@code text} is the whole JSON text. */
    public static Policy parse(String text, Kind kind) throws PolicyException {
        Json.Value root;
        try {
            root = Json.parse(text);
        } catch (Json.SyntaxException e) {
            throw new PolicyException(PolicyException.Kind.INVALID_JSON, e.where(),
                    "This policy contains invalid Json (" + e.getMessage() + ")");
        }
        return parse(root, kind);
    }

    static Policy parse(Json.Value root, Kind kind) throws PolicyException {
        Json.Obj doc = object(root, "the policy");
        for (String member : doc.members().keySet()) {
            if (!member.equals("Version") && !member.equals("Id") && !member.equals("Statement")) {
                throw syntax(doc.get(member), "unknown element " + member);
            }
        }
        String version = null;
        Json.Value v = doc.get("Version");
        if (v != null) {
            if (!(v instanceof Json.Str s) || !(s.value().equals(VERSION_2012) || s.value().equals(VERSION_2008))) {
                throw new PolicyException(PolicyException.Kind.SYNTAX, v.where(),
                        "The policy must contain a valid version string");
            }
            version = s.value();
        }
        if (doc.get("Id") != null && !(doc.get("Id") instanceof Json.Str)) throw syntax(doc.get("Id"), "Id must be a string");
        Json.Value statementValue = doc.get("Statement");
        if (statementValue == null) throw missing(doc, "Statement");
        List<Json.Value> statementValues = statementValue instanceof Json.Arr a ? a.elements() : List.of(statementValue);
        if (statementValues.isEmpty()) {
            throw new PolicyException(PolicyException.Kind.EMPTY_STATEMENT, statementValue.where(),
                    "Could not parse the policy: Statement is empty!");
        }
        List<Statement> statements = new ArrayList<>(statementValues.size());
        Set<String> sids = new HashSet<>();
        for (Json.Value s : statementValues) {
            Statement statement = statement(object(s, "a statement"), kind);
            if (statement.sid() != null && !sids.add(statement.sid())) {
                throw new PolicyException(PolicyException.Kind.DUPLICATE_SID, s.where(),
                        "The Statement Ids in the policy are not unique");
            }
            statements.add(statement);
        }
        return new Policy(version, statements);
    }

    private static final Set<String> STATEMENT_ELEMENTS = Set.of("Sid", "Effect", "Principal", "NotPrincipal", "Action",
            "NotAction", "Resource", "NotResource", "Condition");

    private static Statement statement(Json.Obj s, Kind kind) throws PolicyException {
        for (String member : s.members().keySet()) {
            if (!STATEMENT_ELEMENTS.contains(member)) throw syntax(s.get(member), "unknown element " + member);
        }
        String sid = null;
        if (s.get("Sid") != null) {
            if (!(s.get("Sid") instanceof Json.Str str)) throw syntax(s.get("Sid"), "Sid must be a string");
            sid = str.value();
        }
        Json.Value effect = s.get("Effect");
        if (effect == null) throw missing(s, "Effect");
        // DynamoDB takes "allow" for Allow (it rewrites it); IAM's own grammar names Allow and Deny.
        boolean allow;
        if (effect instanceof Json.Str e && e.value().equalsIgnoreCase("Allow")) {
            allow = true;
        } else if (effect instanceof Json.Str e && e.value().equalsIgnoreCase("Deny")) {
            allow = false;
        } else {
            throw syntax(effect, "Effect must be Allow or Deny");
        }
        List<String> principals = null;
        boolean notPrincipal = false;
        if (s.get("Principal") != null || s.get("NotPrincipal") != null) {
            if (kind == Kind.IDENTITY) {
                String field = s.get("Principal") != null ? "Principal" : "NotPrincipal";
                throw new PolicyException(PolicyException.Kind.PROHIBITED_FIELD, s.get(field).where(),
                        "Has prohibited field " + field);
            }
            if (s.get("Principal") != null && s.get("NotPrincipal") != null) {
                throw syntax(s.get("NotPrincipal"), "a statement has Principal or NotPrincipal, not both");
            }
            notPrincipal = s.get("Principal") == null;
            principals = principals(notPrincipal ? s.get("NotPrincipal") : s.get("Principal"));
        } else if (kind == Kind.RESOURCE) {
            throw missing(s, "Principal");
        }
        boolean notAction = pickOne(s, "Action", "NotAction");
        List<String> actions = strings(s.get(notAction ? "NotAction" : "Action"));
        for (String a : actions) {
            if (!a.equals("*") && a.indexOf(':') <= 0) {
                throw syntax(s.get(notAction ? "NotAction" : "Action"), "Action \"" + a + "\" is not service:action");
            }
        }
        boolean notResource = pickOne(s, "Resource", "NotResource");
        List<String> resources = strings(s.get(notResource ? "NotResource" : "Resource"));
        for (String r : resources) {
            if (!r.equals("*") && !r.startsWith("arn:")) {
                throw syntax(s.get(notResource ? "NotResource" : "Resource"), "Resource \"" + r + "\" is not an ARN");
            }
        }
        List<Condition> conditions = s.get("Condition") == null ? List.of() : conditions(s.get("Condition"));
        return new Statement(sid, allow, principals, notPrincipal, actions, notAction, resources, notResource,
                conditions);
    }

    /** True for the "Not" form; one of the two must be there, not both. */
    private static boolean pickOne(Json.Obj s, String element, String notElement) throws PolicyException {
        Json.Value plain = s.get(element);
        Json.Value not = s.get(notElement);
        if (plain == null && not == null) throw missing(s, element);
        if (plain != null && not != null) {
            throw syntax(not, "a statement has " + element + " or " + notElement + ", not both");
        }
        return plain == null;
    }

    /** Principal: "*" or a map of AWS/Service/Federated/CanonicalUser to strings; kept as "AWS:arn" etc. */
    private static List<String> principals(Json.Value value) throws PolicyException {
        if (value instanceof Json.Str s) {
            if (!s.value().equals("*")) throw syntax(value, "Principal must be \"*\" or an object such as {\"AWS\": ...}");
            return List.of("*");
        }
        Json.Obj map = object(value, "Principal");
        if (map.members().isEmpty()) throw syntax(value, "Principal is empty");
        List<String> principals = new ArrayList<>();
        for (Map.Entry<String, Json.Value> e : map.members().entrySet()) {
            String type = e.getKey();
            if (!List.of("AWS", "Service", "Federated", "CanonicalUser").contains(type)) {
                throw syntax(e.getValue(), "unknown principal type " + type);
            }
            for (String p : strings(e.getValue())) principals.add(type + ":" + p);
        }
        return principals;
    }

    private static List<Condition> conditions(Json.Value value) throws PolicyException {
        Json.Obj block = object(value, "Condition");
        List<Condition> conditions = new ArrayList<>();
        for (Map.Entry<String, Json.Value> op : block.members().entrySet()) {
            String name = op.getKey();
            Qualifier qualifier = Qualifier.NONE;
            if (name.startsWith("ForAllValues:")) {
                qualifier = Qualifier.FOR_ALL_VALUES;
                name = name.substring("ForAllValues:".length());
            } else if (name.startsWith("ForAnyValue:")) {
                qualifier = Qualifier.FOR_ANY_VALUE;
                name = name.substring("ForAnyValue:".length());
            }
            boolean ifExists = name.endsWith("IfExists");
            if (ifExists) name = name.substring(0, name.length() - "IfExists".length());
            Operator operator = Operator.named(name);
            if (operator == null || (ifExists && operator == Operator.Null)) {
                throw syntax(op.getValue(), "unknown condition operator " + op.getKey());
            }
            Json.Obj keys = object(op.getValue(), "condition operator " + op.getKey());
            for (Map.Entry<String, Json.Value> key : keys.members().entrySet()) {
                List<String> values = conditionValues(key.getValue());
                if (operator == Operator.Null || operator == Operator.Bool) {
                    for (String v : values) {
                        if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false")) {
                            throw syntax(key.getValue(), op.getKey() + " takes true or false");
                        }
                    }
                }
                conditions.add(new Condition(operator, qualifier, ifExists, key.getKey().toLowerCase(Locale.ROOT),
                        values));
            }
        }
        return conditions;
    }

    /** Condition values may be strings, numbers or booleans, alone or in a list. */
    private static List<String> conditionValues(Json.Value value) throws PolicyException {
        List<Json.Value> elements = value instanceof Json.Arr a ? a.elements() : List.of(value);
        List<String> values = new ArrayList<>(elements.size());
        for (Json.Value e : elements) {
            switch (e) {
                case Json.Str s -> values.add(s.value());
                case Json.Other o when o.token().isScalarValue() && o.token() != com.fasterxml.jackson.core.JsonToken.VALUE_NULL ->
                        values.add(o.text());
                default -> throw syntax(e, "a condition value must be a string, a number or a boolean");
            }
        }
        return values;
    }

    /** A string, or a non-empty list of strings. */
    private static List<String> strings(Json.Value value) throws PolicyException {
        if (value instanceof Json.Str s) return List.of(s.value());
        if (value instanceof Json.Arr a && !a.elements().isEmpty()) {
            List<String> strings = new ArrayList<>(a.elements().size());
            for (Json.Value e : a.elements()) {
                if (!(e instanceof Json.Str s)) throw syntax(e, "expected a string");
                strings.add(s.value());
            }
            return strings;
        }
        throw syntax(value, "expected a string or a list of strings");
    }

    private static Json.Obj object(Json.Value value, String what) throws PolicyException {
        if (value instanceof Json.Obj o) return o;
        throw syntax(value, what + " must be a JSON object");
    }

    private static PolicyException missing(Json.Obj in, String field) {
        return new PolicyException(PolicyException.Kind.MISSING_FIELD, in.where(), "Missing required field " + field);
    }

    private static PolicyException syntax(Json.Value at, String detail) {
        return new PolicyException(PolicyException.Kind.SYNTAX, at.where(), detail);
    }
}

package io.stator.server.access;

import io.stator.core.error.DynamoDbException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * DynamoDB's checks of a resource-based policy document (PutResourcePolicy, CreateTable's
 * ResourcePolicy), in DynamoDB's words, and the canonical form DynamoDB stores and returns.
 *
 * <p>The texts and rules are DynamoDB's as recorded against it (ack-api-quirks, 2026: findings
 * DDB-TABLE-207/208/211/351-356): the size limit counts whitespace and is a ValidationException
 * ("Maximum policy size of 20480 bytes exceeded"); "Invalid policy document: X" for malformed
 * documents, with IAM's X ("This policy contains invalid Json", "Missing required field
 * Resource", "Could not parse the policy: Statement is empty!", "The Statement Ids in the policy
 * are not unique", "Syntax error at position (line,column)"); an Allow to everyone "grants
 * unbounded access"; a principal of no known account is "Invalid principal in policy document.";
 * stream actions are invalid in a table's policy.
 *
 * <p>The canonical form, which GetResourcePolicy returns and which decides whether a Put changes
 * anything: minified; {@code Version}, {@code Id}, {@code Statement}; in each statement Sid,
 * Effect (capitalized), Principal, Action, Resource, Condition; a one-element list written as its
 * element; an account id principal written as the account's root ARN, and principals listed once;
 * a single Statement object written as a list.
 */
public final class ResourcePolicyDocuments {

    /** DynamoDB's limit on a resource-based policy, whitespace included. */
    public static final int MAX_BYTES = 20480;

    private static final String INVALID = "One or more parameter values were invalid: ";
    private static final Pattern ACCOUNT_ID = Pattern.compile("\\d{12}");
    /** Actions on streams, which a table's policy may not name. */
    private static final List<String> STREAM_ACTIONS = List.of("dynamodb:DescribeStream", "dynamodb:GetRecords",
            "dynamodb:GetShardIterator");

    private ResourcePolicyDocuments() {}

    /** A document that passed the checks: its canonical text and its parsed form. */
    public record Checked(String canonical, Policy policy) {}

    /** Checks a table's policy document in DynamoDB's order, or throws its ValidationException. */
    public static Checked check(String document, String accountId) {
        if (document.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            throw DynamoDbException.validation(INVALID + "Maximum policy size of " + MAX_BYTES + " bytes exceeded");
        }
        Json.Value root;
        try {
            root = Json.parse(document);
        } catch (Json.SyntaxException e) {
            throw invalidDocument("This policy contains invalid Json");
        }
        Policy policy;
        try {
            policy = Policy.parse(root, Policy.Kind.RESOURCE);
        } catch (PolicyException e) {
            throw invalidDocument(switch (e.kind()) {
                case SYNTAX, PROHIBITED_FIELD -> "Syntax error at position (" + e.line() + "," + e.column() + ")";
                case INVALID_JSON -> "This policy contains invalid Json";
                default -> e.reason();
            });
        }
        List<String> invalidActions = new ArrayList<>();
        for (Policy.Statement s : policy.statements()) {
            for (String p : s.principals()) {
                if (p.equals("*") || p.equals("AWS:*")) {
                    // DynamoDB refuses an unconditioned Allow to everyone; with a condition that
                    // narrows the principals it is not known to refuse it (Stator accepts it).
                    if (s.allow() && !s.notPrincipal() && s.conditions().isEmpty()) {
                        throw DynamoDbException.validation("Resource-based policy grants unbounded access in one or "
                                + "more elements. Please revise the policy to ensure least-privilege form of access");
                    }
                } else if (p.startsWith("AWS:") && !ofAccount(p.substring(4), accountId)) {
                    throw DynamoDbException.validation(INVALID + "Invalid principal in policy document.");
                }
            }
            for (String a : s.actions()) {
                for (String stream : STREAM_ACTIONS) {
                    if (a.equalsIgnoreCase(stream) && !invalidActions.contains("\"" + a + "\"")) {
                        invalidActions.add("\"" + a + "\"");
                    }
                }
            }
        }
        if (!invalidActions.isEmpty()) {
            throw invalidDocument("The following action names are invalid: " + String.join(", ", invalidActions));
        }
        return new Checked(canonical((Json.Obj) root, accountId), policy);
    }

    /**
     * The document as GetResourcePolicy returns it: DynamoDB fills in the Version of a document
     * sent without one with IAM's default, 2008-10-17 (though it keeps them apart when comparing).
     */
    public static String asReturned(String canonical) {
        if (canonical.startsWith("{\"Version\":")) return canonical;
        return "{\"Version\":\"" + Policy.VERSION_2008 + "\"," + canonical.substring(1);
    }

    /**
     * Principals must be of a known account: this server has one. (DynamoDB checks with IAM that
     * the principal exists; Stator knows no other account, and does not check the user or role name.)
     */
    private static boolean ofAccount(String principal, String accountId) {
        if (ACCOUNT_ID.matcher(principal).matches()) return principal.equals(accountId);
        String prefix = "arn:aws:iam::" + accountId + ":";
        if (!principal.startsWith(prefix)) return false;
        String rest = principal.substring(prefix.length());
        return rest.equals("root") || rest.startsWith("user/") || rest.startsWith("role/")
                || rest.startsWith("assumed-role/") || rest.startsWith("group/");
    }

    private static DynamoDbException invalidDocument(String reason) {
        return DynamoDbException.validation(INVALID + "Invalid policy document: " + reason);
    }

    private static String canonical(Json.Obj doc, String accountId) {
        StringBuilder out = new StringBuilder(256).append('{');
        boolean first = true;
        for (String member : List.of("Version", "Id")) {
            if (doc.get(member) == null) continue;
            if (!first) out.append(',');
            first = false;
            Json.quote(out, member);
            out.append(':');
            Json.quote(out, ((Json.Str) doc.get(member)).value());
        }
        if (!first) out.append(',');
        out.append("\"Statement\":[");
        Json.Value statements = doc.get("Statement");
        List<Json.Value> list = statements instanceof Json.Arr a ? a.elements() : List.of(statements);
        for (int i = 0; i < list.size(); i++) {
            if (i > 0) out.append(',');
            statement(out, (Json.Obj) list.get(i), accountId);
        }
        return out.append("]}").toString();
    }

    private static final List<String> STATEMENT_ORDER = List.of("Sid", "Effect", "Principal", "NotPrincipal", "Action",
            "NotAction", "Resource", "NotResource", "Condition");

    private static void statement(StringBuilder out, Json.Obj s, String accountId) {
        out.append('{');
        boolean first = true;
        for (String member : STATEMENT_ORDER) {
            Json.Value v = s.get(member);
            if (v == null) continue;
            if (!first) out.append(',');
            first = false;
            Json.quote(out, member);
            out.append(':');
            switch (member) {
                case "Effect" -> Json.quote(out, ((Json.Str) v).value().equalsIgnoreCase("allow") ? "Allow" : "Deny");
                case "Principal", "NotPrincipal" -> principal(out, v, accountId);
                case "Condition" -> condition(out, (Json.Obj) v);
                default -> values(out, v);
            }
        }
        out.append('}');
    }

    private static void principal(StringBuilder out, Json.Value v, String accountId) {
        if (v instanceof Json.Str s) {
            Json.quote(out, s.value());
            return;
        }
        out.append('{');
        boolean first = true;
        for (Map.Entry<String, Json.Value> e : ((Json.Obj) v).members().entrySet()) {
            if (!first) out.append(',');
            first = false;
            Json.quote(out, e.getKey());
            out.append(':');
            List<Json.Value> elements = e.getValue() instanceof Json.Arr a ? a.elements() : List.of(e.getValue());
            Set<String> principals = new LinkedHashSet<>();
            for (Json.Value p : elements) {
                String text = ((Json.Str) p).value();
                boolean account = e.getKey().equals("AWS") && ACCOUNT_ID.matcher(text).matches();
                principals.add(account ? "arn:aws:iam::" + text + ":root" : text);
            }
            strings(out, new ArrayList<>(principals));
        }
        out.append('}');
    }

    private static void condition(StringBuilder out, Json.Obj c) {
        out.append('{');
        boolean firstOperator = true;
        for (Map.Entry<String, Json.Value> op : c.members().entrySet()) {
            if (!firstOperator) out.append(',');
            firstOperator = false;
            Json.quote(out, op.getKey());
            out.append(":{");
            boolean firstKey = true;
            for (Map.Entry<String, Json.Value> key : ((Json.Obj) op.getValue()).members().entrySet()) {
                if (!firstKey) out.append(',');
                firstKey = false;
                Json.quote(out, key.getKey());
                out.append(':');
                values(out, key.getValue());
            }
            out.append('}');
        }
        out.append('}');
    }

    /** A value or a list of values, a one-element list written as its element. */
    private static void values(StringBuilder out, Json.Value v) {
        if (v instanceof Json.Arr a && a.elements().size() != 1) {
            out.append('[');
            for (int i = 0; i < a.elements().size(); i++) {
                if (i > 0) out.append(',');
                scalar(out, a.elements().get(i));
            }
            out.append(']');
        } else {
            scalar(out, v instanceof Json.Arr a ? a.elements().get(0) : v);
        }
    }

    private static void strings(StringBuilder out, List<String> values) {
        if (values.size() == 1) {
            Json.quote(out, values.get(0));
            return;
        }
        out.append('[');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) out.append(',');
            Json.quote(out, values.get(i));
        }
        out.append(']');
    }

    private static void scalar(StringBuilder out, Json.Value v) {
        if (v instanceof Json.Str s) {
            Json.quote(out, s.value());
        } else {
            out.append(((Json.Other) v).text());
        }
    }
}

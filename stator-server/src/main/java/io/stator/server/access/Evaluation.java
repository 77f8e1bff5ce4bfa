package io.stator.server.access;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * IAM's policy evaluation for a request within one account (IAM User Guide, "Policy evaluation
 * logic" and "Policy evaluation for requests within a single account"):
 * <ol>
 *   <li>a statement applies when its action, resource and principal match and every one of its
 *       conditions holds (conditions are ANDed, a condition's values ORed);</li>
 *   <li>an applicable Deny in any policy is an explicit deny, whatever allows the request;</li>
 *   <li>else an applicable Allow in the identity-based policies or in the resource-based policy
 *       allows it ("if either the identity-based policy or the resource-based policy within the
 *       same account allows the request and the other doesn't, the request is still allowed");</li>
 *   <li>else it is denied by default (an implicit deny).</li>
 * </ol>
 * A resource-based statement whose principal is the account (its id or {@code :root} ARN)
 * delegates to the account's own policies: its Allow grants nothing by itself to a user of the
 * account, whose identity-based policy must allow the request; its Deny applies to every
 * principal of the account.
 */
final class Evaluation {

    private Evaluation() {}

    /** The outcome, with where an explicit deny came from (AWS's message says). */
    enum Decision { ALLOW, IMPLICIT_DENY, IDENTITY_DENY, RESOURCE_DENY }

    static Decision decide(Principal principal, AccessRequest request, List<Policy> identityPolicies,
                           Policy resourcePolicy, Instant now) {
        Keys keys = new Keys(principal, request, now);
        boolean allowed = false;
        for (Policy p : identityPolicies) {
            for (Policy.Statement s : p.statements()) {
                if (!applies(s, p, request, keys)) continue;
                if (!s.allow()) return Decision.IDENTITY_DENY;
                allowed = true;
            }
        }
        if (resourcePolicy != null) {
            for (Policy.Statement s : resourcePolicy.statements()) {
                PrincipalMatch match = principalMatch(s, principal);
                if (match == PrincipalMatch.NONE || !applies(s, resourcePolicy, request, keys)) continue;
                if (!s.allow()) return Decision.RESOURCE_DENY;
                if (match == PrincipalMatch.SPECIFIC) allowed = true;
            }
        }
        return allowed ? Decision.ALLOW : Decision.IMPLICIT_DENY;
    }

    /** The decision of one policy alone (PutResourcePolicy's check that the caller keeps access). */
    static boolean explicitlyDenies(Policy resourcePolicy, Principal principal, AccessRequest request, Instant now) {
        Keys keys = new Keys(principal, request, now);
        for (Policy.Statement s : resourcePolicy.statements()) {
            if (!s.allow() && principalMatch(s, principal) != PrincipalMatch.NONE
                    && applies(s, resourcePolicy, request, keys)) {
                return true;
            }
        }
        return false;
    }

    private enum PrincipalMatch { NONE, ACCOUNT, SPECIFIC }

    private static PrincipalMatch principalMatch(Policy.Statement s, Principal principal) {
        PrincipalMatch listed = PrincipalMatch.NONE;
        for (String p : s.principals()) {
            PrincipalMatch m = principalMatch(p, principal);
            if (m.ordinal() > listed.ordinal()) listed = m;
        }
        if (!s.notPrincipal()) return listed;
        return listed == PrincipalMatch.NONE ? PrincipalMatch.SPECIFIC : PrincipalMatch.NONE;
    }

    private static PrincipalMatch principalMatch(String principal, Principal caller) {
        if (principal.equals("*") || principal.equals("AWS:*")) return PrincipalMatch.SPECIFIC;
        if (!principal.startsWith("AWS:")) return PrincipalMatch.NONE;
        String p = principal.substring(4);
        if (p.equals(caller.arn())) return PrincipalMatch.SPECIFIC;
        if (p.equals(caller.accountId()) || p.equals(caller.accountRootArn())) return PrincipalMatch.ACCOUNT;
        return PrincipalMatch.NONE;
    }

    static boolean applies(Policy.Statement s, Policy policy, AccessRequest request, Keys keys) {
        boolean actionListed = false;
        for (String a : s.actions()) {
            if (Wildcards.matches(a, request.action(), true)) {
                actionListed = true;
                break;
            }
        }
        if (actionListed == s.notAction()) return false;
        boolean resourceListed = false;
        for (String r : s.resources()) {
            String pattern = policy.substitutesVariables() ? substitute(r, keys) : r;
            if (pattern != null && Wildcards.matchesArn(pattern, request.resource())) {
                resourceListed = true;
                break;
            }
        }
        if (resourceListed == s.notResource()) return false;
        for (Policy.Condition c : s.conditions()) {
            if (!holds(c, policy, keys)) return false;
        }
        return true;
    }

    /**
     * One condition (IAM User Guide, "Condition operators" and "Set operators for multivalued
     * context keys"): a key absent from the request fails a positive operator and satisfies a
     * negated one; ...IfExists is true when the key is absent; Null tests absence; ForAllValues
     * holds when every value of the key matches (vacuously for an absent or empty key),
     * ForAnyValue when at least one does.
     */
    static boolean holds(Policy.Condition c, Policy policy, Keys keys) {
        List<String> values = keys.values(c.key());
        if (c.operator() == Operator.Null) {
            boolean absent = values == null || values.isEmpty();
            boolean wantsAbsent = false;
            for (String v : c.values()) if (v.equalsIgnoreCase("true")) wantsAbsent = true;
            return absent == wantsAbsent;
        }
        List<String> policyValues = policy.substitutesVariables() ? substituteAll(c.values(), keys) : c.values();
        switch (c.qualifier()) {
            case FOR_ALL_VALUES -> {
                if (values == null || values.isEmpty()) return true;
                for (String v : values) if (!holdsFor(c.operator(), v, policyValues)) return false;
                return true;
            }
            case FOR_ANY_VALUE -> {
                if (values == null) return c.ifExists();
                for (String v : values) if (holdsFor(c.operator(), v, policyValues)) return true;
                return false;
            }
            default -> {
                if (values == null || values.isEmpty()) return c.ifExists() || c.operator().negated();
                // A single-valued operator on a key with several values: true when a value matches
                // (for a negated operator, when none matches).
                if (c.operator().negated()) {
                    for (String v : values) if (!holdsFor(c.operator(), v, policyValues)) return false;
                    return true;
                }
                for (String v : values) if (holdsFor(c.operator(), v, policyValues)) return true;
                return false;
            }
        }
    }

    /** The operator for one value of the key against the policy's values (ORed). */
    private static boolean holdsFor(Operator operator, String value, List<String> policyValues) {
        boolean any = false;
        for (String p : policyValues) {
            if (operator.matches(value, p)) {
                any = true;
                break;
            }
        }
        return operator.negated() != any;
    }

    private static List<String> substituteAll(List<String> values, Keys keys) {
        List<String> substituted = new ArrayList<>(values.size());
        for (String v : values) {
            String s = substitute(v, keys);
            if (s != null) substituted.add(s);
        }
        return substituted;
    }

    /**
     * Replaces policy variables ({@code ${aws:username}}, {@code ${key, 'default'}}, and the
     * escapes {@code ${*}}, {@code ${?}}, {@code ${$}}); null when a variable has no value and
     * no default, so that the element it is in matches nothing.
     */
    static String substitute(String text, Keys keys) {
        int start = text.indexOf("${");
        if (start < 0) return text;
        StringBuilder out = new StringBuilder(text.length());
        int at = 0;
        while (start >= 0) {
            int end = text.indexOf('}', start);
            if (end < 0) break;
            out.append(text, at, start);
            String variable = text.substring(start + 2, end).trim();
            String fallback = null;
            int comma = variable.indexOf(',');
            if (comma >= 0) {
                String d = variable.substring(comma + 1).trim();
                if (d.length() >= 2 && d.startsWith("'") && d.endsWith("'")) fallback = d.substring(1, d.length() - 1);
                variable = variable.substring(0, comma).trim();
            }
            String value = switch (variable) {
                case "*", "?", "$" -> variable;
                default -> {
                    List<String> values = keys.values(variable.toLowerCase(Locale.ROOT));
                    yield values != null && values.size() == 1 ? values.get(0) : fallback;
                }
            };
            if (value == null) return null;
            out.append(value);
            at = end + 1;
            start = text.indexOf("${", at);
        }
        out.append(text, at, text.length());
        return out.toString();
    }

    /** The request's condition keys and the global keys IAM sets for every request. */
    static final class Keys {
        private final Principal principal;
        private final AccessRequest request;
        private final Instant now;

        Keys(Principal principal, AccessRequest request, Instant now) {
            this.principal = principal;
            this.request = request;
            this.now = now;
        }

        /** The key's values, or null when the request has no such key. */
        List<String> values(String lowerCaseKey) {
            List<String> v = request.keys().get(lowerCaseKey);
            if (v != null) return v;
            return switch (lowerCaseKey) {
                case "aws:username" -> List.of(principal.userName());
                case "aws:userid" -> List.of(principal.userId());
                case "aws:principalarn" -> List.of(principal.arn());
                case "aws:principalaccount" -> List.of(principal.accountId());
                case "aws:principaltype" -> List.of("User");
                case "aws:currenttime" -> List.of(now.toString());
                case "aws:epochtime" -> List.of(Long.toString(now.getEpochSecond()));
                default -> null;
            };
        }
    }
}

package io.stator.server.access;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Who may do what, when the server runs with --policies: the identity-based policies of each
 * access key, combined with the resource-based policy of the resource a request acts on, as IAM
 * combines them within one account ({@link Evaluation}). It makes one {@link Authorizer} per
 * request, for the access key whose signature was verified.
 *
 * <p>Resource-based policies are stored with their tables as text; they are parsed once per
 * document and kept here, since a table's policy is read on every request on the table.
 */
public final class AccessControl {

    private static final int MAX_CACHED_POLICIES = 1024;

    private final IdentityPolicies identities;
    private final String accountId;
    private final Clock clock;
    private final Map<String, Policy> parsedResourcePolicies = new ConcurrentHashMap<>();

    public AccessControl(IdentityPolicies identities, String accountId, Clock clock) {
        this.identities = identities;
        this.accountId = accountId;
        this.clock = clock;
    }

    /** The caller's principal: the user the file names for the key, or the user named as the key. */
    public Principal principal(String accessKeyId) {
        IdentityPolicies.Identity identity = identities.identity(accessKeyId);
        return Principal.user(accountId, identity == null ? accessKeyId : identity.userName(), accessKeyId);
    }

    /** The authorization of a request signed with {@code accessKeyId}'s verified signature. */
    public Authorizer authorizer(String accessKeyId) {
        IdentityPolicies.Identity identity = identities.identity(accessKeyId);
        Principal principal = principal(accessKeyId);
        List<Policy> policies = identity == null ? List.of() : identity.policies();
        return new Authorizer() {
            @Override
            public boolean enforced() { return true; }

            @Override
            public void authorize(AccessRequest request, String resourcePolicy) {
                Evaluation.Decision d = Evaluation.decide(principal, request, policies, parsed(resourcePolicy),
                        clock.instant());
                if (d != Evaluation.Decision.ALLOW) throw accessDenied(principal, request, d);
            }

            @Override
            public void checkKeepsPolicyAccess(Policy newPolicy, String resourceArn) {
                AccessRequest put = new AccessRequest("dynamodb:PutResourcePolicy", resourceArn, Map.of());
                if (Evaluation.explicitlyDenies(newPolicy, principal, put, clock.instant())) {
                    // As DynamoDB words it (ack-api-quirks DDB-TABLE-210, 2026).
                    throw new DynamoDbException(ErrorType.ACCESS_DENIED,
                            "The new resource policy will not allow you to update the resource policy in the future.");
                }
            }
        };
    }

    private Policy parsed(String document) {
        if (document == null) return null;
        Policy p = parsedResourcePolicies.get(document);
        if (p != null) return p;
        try {
            p = Policy.parse(document, Policy.Kind.RESOURCE);
        } catch (PolicyException e) {
            // Stored documents passed PutResourcePolicy's checks; one that no longer parses grants nothing.
            return null;
        }
        if (parsedResourcePolicies.size() >= MAX_CACHED_POLICIES) parsedResourcePolicies.clear();
        parsedResourcePolicies.put(document, p);
        return p;
    }

    /**
     * AWS's message (IAM User Guide, "Troubleshoot access denied error messages": "User user is
     * not authorized to perform action on resource because context"), e.g. "User:
     * arn:aws:iam::123456789012:user/alice is not authorized to perform: dynamodb:PutItem on
     * resource: arn:aws:dynamodb:us-east-1:123456789012:table/T because no identity-based policy
     * allows the dynamodb:PutItem action". Within one account, an implicit deny means no
     * identity-based policy allows the action (a resource-based one could have too, but the
     * message names the identity's).
     */
    static DynamoDbException accessDenied(Principal principal, AccessRequest request, Evaluation.Decision decision) {
        String prefix = "User: " + principal.arn() + " is not authorized to perform: " + request.action()
                + " on resource: " + request.resource();
        String context = switch (decision) {
            case IDENTITY_DENY -> " with an explicit deny in an identity-based policy";
            case RESOURCE_DENY -> " with an explicit deny in a resource-based policy";
            default -> " because no identity-based policy allows the " + request.action() + " action";
        };
        return new DynamoDbException(ErrorType.ACCESS_DENIED, prefix + context);
    }
}

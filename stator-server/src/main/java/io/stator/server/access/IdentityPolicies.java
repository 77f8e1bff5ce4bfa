package io.stator.server.access;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The identity-based policies of each access key: the --policies file.
 *
 * <p>The file is one JSON object whose members are access key ids. A member's value is a policy
 * document as IAM writes it ({@code {"Version": ..., "Statement": ...}}), a list of them, or
 * {@code {"UserName": "alice", "Policies": <a document or a list>}} to give the key's user a
 * name (the principal is then {@code arn:aws:iam::ACCOUNT:user/alice}; without one it is the
 * user named as the access key id). A key absent from the file has no identity-based policy:
 * only a table's resource-based policy can let it do anything.
 *
 * <p>A file that is not such a document is refused with the place (line and column) and the
 * reason, so that the server does not start with policies other than those meant.
 */
public final class IdentityPolicies {

    /** IAM's rule for user names. */
    private static final Pattern USER_NAME = Pattern.compile("[\\w+=,.@-]{1,64}");

    /** One access key's user and policies. */
    public record Identity(String userName, List<Policy> policies) {}

    private final Map<String, Identity> byAccessKeyId;

    private IdentityPolicies(Map<String, Identity> byAccessKeyId) {
        this.byAccessKeyId = Collections.unmodifiableMap(byAccessKeyId);
    }

    /**
     * Reads a policies file (UTF-8).
     *
     * @throws IllegalArgumentException naming the file, the place and the reason when it is not valid
     */
    public static IdentityPolicies load(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }

    /** Parses the file format; {@code source} names it in error messages. */
    public static IdentityPolicies parse(String text, String source) {
        if (text.startsWith("\uFEFF")) text = text.substring(1);
        Json.Value root;
        try {
            root = Json.parse(text);
        } catch (Json.SyntaxException e) {
            throw new IllegalArgumentException(source + ", " + e.where() + ": not valid JSON: " + e.getMessage());
        }
        if (!(root instanceof Json.Obj keys)) {
            throw new IllegalArgumentException(source + ", " + root.where()
                    + ": expected a JSON object whose members are access key ids");
        }
        Map<String, Identity> identities = new LinkedHashMap<>();
        for (Map.Entry<String, Json.Value> e : keys.members().entrySet()) {
            String accessKeyId = e.getKey();
            try {
                identities.put(accessKeyId, identity(accessKeyId, e.getValue()));
            } catch (PolicyException p) {
                throw new IllegalArgumentException(source + (p.line() > 0 ? ", line " + p.line() + ", column "
                        + p.column() : "") + ": access key '" + accessKeyId + "': " + p.reason());
            }
        }
        return new IdentityPolicies(identities);
    }

    private static Identity identity(String accessKeyId, Json.Value value) throws PolicyException {
        String userName = accessKeyId;
        Json.Value policies = value;
        if (value instanceof Json.Obj o && (o.get("UserName") != null || o.get("Policies") != null)) {
            for (String member : o.members().keySet()) {
                if (!member.equals("UserName") && !member.equals("Policies")) {
                    throw new PolicyException(PolicyException.Kind.SYNTAX, o.get(member).where(), "unknown element "
                            + member + " (a key's entry is a policy, a list of policies, or UserName and Policies)");
                }
            }
            if (o.get("UserName") != null) {
                if (!(o.get("UserName") instanceof Json.Str name) || !USER_NAME.matcher(name.value()).matches()) {
                    throw new PolicyException(PolicyException.Kind.SYNTAX, o.get("UserName").where(),
                            "UserName must be 1 to 64 letters, digits and +=,.@_-");
                }
                userName = name.value();
            }
            policies = o.get("Policies");
            if (policies == null) {
                throw new PolicyException(PolicyException.Kind.MISSING_FIELD, o.where(), "Missing required field Policies");
            }
        }
        List<Json.Value> documents = policies instanceof Json.Arr a ? a.elements() : List.of(policies);
        List<Policy> parsed = new ArrayList<>(documents.size());
        for (Json.Value d : documents) parsed.add(Policy.parse(d, Policy.Kind.IDENTITY));
        return new Identity(userName, List.copyOf(parsed));
    }

    /** The key's user and policies, or null when the file does not name the key. */
    public Identity identity(String accessKeyId) {
        return byAccessKeyId.get(accessKeyId);
    }

    public Set<String> accessKeyIds() {
        return byAccessKeyId.keySet();
    }
}

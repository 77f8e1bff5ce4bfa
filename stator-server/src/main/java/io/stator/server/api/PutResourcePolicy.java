package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.table.ResourcePolicies;
import io.stator.engine.table.ResourcePolicy;
import io.stator.engine.table.TableDefinition;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.access.ResourcePolicyDocuments;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.PutResourcePolicyInput;
import java.io.IOException;

/**
 * PutResourcePolicy: attaches a resource-based policy to a table (streams are not served yet).
 * Checks in this order: the ResourceArn's form, the document (DynamoDB's texts, see
 * {@link ResourcePolicyDocuments}), the caller's permission, then, unless
 * ConfirmRemoveSelfResourceAccess, that the new document does not deny the caller
 * dynamodb:PutResourcePolicy (DynamoDB's guard against locking oneself out, which it applies
 * to that action only), then the table and ExpectedRevisionId (see the engine's
 * {@link ResourcePolicies}). The response carries the policy's RevisionId; the policy is in
 * force as soon as this returns.
 */
final class PutResourcePolicy implements Action<PutResourcePolicyInput> {

    private final Engine engine;

    PutResourcePolicy(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(PutResourcePolicyInput request, Authorizer access, ResponseBody response) throws IOException {
        ResourcePolicies policies = engine.tables().resourcePolicies();
        ResourcePolicies.tableName(request.resourceArn(), engine.catalog().arns());
        ResourcePolicyDocuments.Checked checked = ResourcePolicyDocuments.check(request.policy(),
                engine.config().accountId());
        if (access.enforced()) {
            TableDefinition table = Permissions.tableOfArn(engine, request.resourceArn());
            Permissions.resource(access, engine, "PutResourcePolicy", request.resourceArn(), table);
            if (!Boolean.TRUE.equals(request.confirmRemoveSelfResourceAccess())) {
                access.checkKeepsPolicyAccess(checked.policy(), request.resourceArn());
            }
        }
        ResourcePolicy put = policies.put(request.resourceArn(), checked.canonical(), request.expectedRevisionId());
        response.json().writeStringField("RevisionId", put.revisionId());
    }
}

package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.engine.table.ResourcePolicies;
import io.stator.engine.table.ResourcePolicy;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.access.ResourcePolicyDocuments;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.GetResourcePolicyInput;
import java.io.IOException;

/**
 * GetResourcePolicy: a table's policy in the canonical form DynamoDB returns (minified, in
 * IAM's order, with Version 2008-10-17 when it was sent without one), and its RevisionId;
 * PolicyNotFoundException when it has none.
 */
final class GetResourcePolicy implements Action<GetResourcePolicyInput> {

    private final Engine engine;

    GetResourcePolicy(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(GetResourcePolicyInput request, Authorizer access, ResponseBody response) throws IOException {
        ResourcePolicies.tableName(request.resourceArn(), engine.catalog().arns());
        if (access.enforced()) {
            Permissions.resource(access, engine, "GetResourcePolicy", request.resourceArn(),
                    Permissions.tableOfArn(engine, request.resourceArn()));
        }
        ResourcePolicy policy = engine.tables().resourcePolicies().get(request.resourceArn());
        JsonGenerator g = response.json();
        g.writeStringField("Policy", ResourcePolicyDocuments.asReturned(policy.document()));
        g.writeStringField("RevisionId", policy.revisionId());
    }
}

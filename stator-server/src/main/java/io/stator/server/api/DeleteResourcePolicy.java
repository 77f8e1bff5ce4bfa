package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.table.ResourcePolicies;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DeleteResourcePolicyInput;
import java.io.IOException;

/**
 * DeleteResourcePolicy: removes a table's policy and answers its RevisionId; a table without
 * one answers an empty body, as DynamoDB does (unless ExpectedRevisionId expected one:
 * PolicyNotFoundException).
 */
final class DeleteResourcePolicy implements Action<DeleteResourcePolicyInput> {

    private final Engine engine;

    DeleteResourcePolicy(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(DeleteResourcePolicyInput request, Authorizer access, ResponseBody response)
            throws IOException {
        ResourcePolicies.tableName(request.resourceArn(), engine.catalog().arns());
        if (access.enforced()) {
            Permissions.resource(access, engine, "DeleteResourcePolicy", request.resourceArn(),
                    Permissions.tableOfArn(engine, request.resourceArn()));
        }
        String removed = engine.tables().resourcePolicies().delete(request.resourceArn(), request.expectedRevisionId());
        if (removed != null) response.json().writeStringField("RevisionId", removed);
    }
}

package io.stator.server.api;

import static io.stator.server.api.checks.ExpressionParameters.member;

import io.stator.engine.Engine;
import io.stator.engine.table.TableDefinition;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.access.ResourcePolicyDocuments;
import io.stator.server.api.checks.NotYetSupported;
import io.stator.server.api.checks.TableRequests;
import io.stator.server.api.json.TableDescriptionJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.CreateTableInput;
import io.stator.server.protocol.request.Tag;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * CreateTable (checked and made by the engine's {@code TableCreation}). The table is usable as
 * soon as this returns. The response says CREATING, as DynamoDB's does, and DescribeTable says
 * ACTIVE from the first call, so waiters finish at once.
 *
 * <p>A ResourcePolicy is checked as PutResourcePolicy checks it, and stored with the table; its
 * RevisionId is the table's creation time. Creating a table with a policy needs permission for
 * both dynamodb:CreateTable and dynamodb:PutResourcePolicy on the new table (the Service
 * Authorization Reference lists several actions CreateTable may need; Stator asks for the two it
 * performs).
 */
final class CreateTable implements Action<CreateTableInput> {

    private final Engine engine;

    CreateTable(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(CreateTableInput request, Authorizer access, ResponseBody response) throws IOException {
        NotYetSupported.refuse(member("GlobalTableSourceArn", request.globalTableSourceArn()),
                member("GlobalTableSettingsReplicationMode", request.globalTableSettingsReplicationMode()));
        String policy = request.resourcePolicy() == null ? null
                : ResourcePolicyDocuments.check(request.resourcePolicy(), engine.config().accountId()).canonical();
        if (access.enforced()) {
            Map<String, String> tags = new LinkedHashMap<>();
            if (request.tags() != null) for (Tag t : request.tags()) tags.put(t.key(), t.value());
            Permissions.table(access, engine, "CreateTable", request.tableName(), tags);
            if (policy != null) Permissions.table(access, engine, "PutResourcePolicy", request.tableName());
        }
        TableDefinition created = engine.tables().create(TableRequests.createTable(request, policy));
        response.json().writeFieldName("TableDescription");
        TableDescriptionJson.write(response.json(), created, engine.catalog(), TableDescriptionJson.View.CREATED);
    }
}

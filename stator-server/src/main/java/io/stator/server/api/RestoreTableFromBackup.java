package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.table.TableDefinition;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.ExpressionParameters;
import io.stator.server.api.checks.NotYetSupported;
import io.stator.server.api.checks.TableRequests;
import io.stator.server.api.json.TableDescriptionJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.RestoreTableFromBackupInput;
import java.io.IOException;

/**
 * RestoreTableFromBackup: the new table's description, CREATING with its RestoreSummary in
 * progress; it becomes ACTIVE once every item is in. Needs dynamodb:RestoreTableFromBackup on
 * the backup and on the target table.
 */
final class RestoreTableFromBackup implements Action<RestoreTableFromBackupInput> {

    private final Engine engine;

    RestoreTableFromBackup(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(RestoreTableFromBackupInput request, Authorizer access, ResponseBody response)
            throws IOException {
        // A restore keeps the backup's vector indexes; choosing among them is not served yet.
        NotYetSupported.refuse(ExpressionParameters.member("VectorIndexOverride", request.vectorIndexOverride()));
        String arn = request.backupArn();
        if (access.enforced()) {
            Permissions.resource(access, engine, "RestoreTableFromBackup", arn, Permissions.tableOfArn(engine, arn));
            Permissions.restoredTable(access, engine, "RestoreTableFromBackup", request.targetTableName());
        }
        TableDefinition restored = engine.restores().fromBackup(arn, request.targetTableName(),
                TableRequests.restoreOverrides(request));
        response.json().writeFieldName("TableDescription");
        TableDescriptionJson.write(response.json(), restored, engine.catalog(), TableDescriptionJson.View.DESCRIBED);
    }
}

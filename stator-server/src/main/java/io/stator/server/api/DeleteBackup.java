package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.BackupJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DeleteBackupInput;
import java.io.IOException;

/** DeleteBackup: answers the backup's description with BackupStatus DELETED. */
final class DeleteBackup implements Action<DeleteBackupInput> {

    private final Engine engine;

    DeleteBackup(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(DeleteBackupInput request, Authorizer access, ResponseBody response) throws IOException {
        String arn = request.backupArn();
        if (access.enforced()) {
            Permissions.resource(access, engine, "DeleteBackup", arn, Permissions.tableOfArn(engine, arn));
        }
        response.json().writeFieldName("BackupDescription");
        BackupJson.writeDescription(response.json(), engine.backups().delete(arn));
    }
}

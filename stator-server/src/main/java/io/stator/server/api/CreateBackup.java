package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.backup.Backup;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.BackupJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.CreateBackupInput;
import java.io.IOException;

/** CreateBackup (the engine's {@code Backups}): answers CREATING; the copy runs in the background. */
final class CreateBackup implements Action<CreateBackupInput> {

    private final Engine engine;

    CreateBackup(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(CreateBackupInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) Permissions.table(access, engine, "CreateBackup", request.tableName());
        Backup backup = engine.backups().create(request.tableName(), request.backupName());
        response.json().writeFieldName("BackupDetails");
        BackupJson.writeDetails(response.json(), backup);
    }
}

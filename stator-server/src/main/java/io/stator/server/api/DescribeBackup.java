package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.BackupJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DescribeBackupInput;
import java.io.IOException;

/** DescribeBackup: the backup and its table as they were when it was requested. */
final class DescribeBackup implements Action<DescribeBackupInput> {

    private final Engine engine;

    DescribeBackup(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(DescribeBackupInput request, Authorizer access, ResponseBody response) throws IOException {
        String arn = request.backupArn();
        if (access.enforced()) {
            Permissions.resource(access, engine, "DescribeBackup", arn, Permissions.tableOfArn(engine, arn));
        }
        response.json().writeFieldName("BackupDescription");
        BackupJson.writeDescription(response.json(), engine.backups().describe(arn));
    }
}

package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.BackupJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DescribeContinuousBackupsInput;
import java.io.IOException;

/** DescribeContinuousBackups: ContinuousBackupsStatus ENABLED, and point-in-time recovery's window. */
final class DescribeContinuousBackups implements Action<DescribeContinuousBackupsInput> {

    private final Engine engine;

    DescribeContinuousBackups(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(DescribeContinuousBackupsInput request, Authorizer access, ResponseBody response)
            throws IOException {
        if (access.enforced()) Permissions.table(access, engine, "DescribeContinuousBackups", request.tableName());
        BackupJson.writeContinuousBackups(response.json(),
                engine.recovery().describeContinuousBackups(request.tableName()));
    }
}

package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.BackupJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.PointInTimeRecoverySpecification;
import io.stator.server.protocol.request.UpdateContinuousBackupsInput;
import java.io.IOException;

/**
 * UpdateContinuousBackups: enables or disables point-in-time recovery (RecoveryPeriodInDays 1 to
 * 35, 35 when not given); answers the ContinuousBackupsDescription after the change.
 */
final class UpdateContinuousBackups implements Action<UpdateContinuousBackupsInput> {

    private final Engine engine;

    UpdateContinuousBackups(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(UpdateContinuousBackupsInput request, Authorizer access, ResponseBody response)
            throws IOException {
        if (access.enforced()) Permissions.table(access, engine, "UpdateContinuousBackups", request.tableName());
        PointInTimeRecoverySpecification spec = request.pointInTimeRecoverySpecification();
        BackupJson.writeContinuousBackups(response.json(), engine.recovery().updateContinuousBackups(
                request.tableName(), spec.pointInTimeRecoveryEnabled(), spec.recoveryPeriodInDays()));
    }
}

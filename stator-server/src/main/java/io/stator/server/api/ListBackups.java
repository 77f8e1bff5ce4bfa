package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.engine.backup.Backup;
import io.stator.engine.backup.Backups;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.BackupJson;
import io.stator.server.api.json.Timestamps;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ListBackupsInput;
import java.io.IOException;

/**
 * ListBackups, oldest first: TimeRangeLowerBound inclusive, TimeRangeUpperBound exclusive (API
 * reference); without a Limit, every backup that matches.
 */
final class ListBackups implements Action<ListBackupsInput> {

    private final Engine engine;

    ListBackups(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(ListBackupsInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) Permissions.account(access, "ListBackups");
        Backups.BackupPage page = engine.backups().list(request.tableName(), Timestamps.instant(request.timeRangeLowerBound()),
                Timestamps.instant(request.timeRangeUpperBound()), request.exclusiveStartBackupArn(),
                request.limit() == null ? Integer.MAX_VALUE : request.limit(), request.backupType());
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("BackupSummaries");
        for (Backup b : page.backups()) BackupJson.writeSummary(g, b);
        g.writeEndArray();
        if (page.lastEvaluatedBackupArn() != null) g.writeStringField("LastEvaluatedBackupArn", page.lastEvaluatedBackupArn());
    }
}

package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import io.stator.engine.table.TableDefinition;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.ExpressionParameters;
import io.stator.server.api.checks.NotYetSupported;
import io.stator.server.api.checks.TableRequests;
import io.stator.server.api.json.TableDescriptionJson;
import io.stator.server.api.json.Timestamps;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.RestoreTableToPointInTimeInput;
import java.io.IOException;
import java.time.Instant;

/**
 * RestoreTableToPointInTime: the new table's description, CREATING with its RestoreSummary in
 * progress, filled with the source table as it was at RestoreDateTime (or the latest restorable
 * time); ACTIVE once every item is in. The source is named by SourceTableName or SourceTableArn;
 * exactly one of RestoreDateTime and UseLatestRestorableTime (true) says when.
 */
final class RestoreTableToPointInTime implements Action<RestoreTableToPointInTimeInput> {

    private final Engine engine;

    RestoreTableToPointInTime(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(RestoreTableToPointInTimeInput request, Authorizer access, ResponseBody response)
            throws IOException {
        // A restore keeps the backup's vector indexes; choosing among them is not served yet.
        NotYetSupported.refuse(ExpressionParameters.member("VectorIndexOverride", request.vectorIndexOverride()));
        // DynamoDB's texts for these two are not recorded: Stator says what is wrong.
        if (request.sourceTableArn() == null && request.sourceTableName() == null) {
            throw DynamoDbException.validation("Either SourceTableName or SourceTableArn must be specified");
        }
        boolean useLatest = Boolean.TRUE.equals(request.useLatestRestorableTime());
        if (useLatest == (request.restoreDateTime() != null)) {
            throw DynamoDbException.validation(
                    "Exactly one of RestoreDateTime and UseLatestRestorableTime (true) must be specified");
        }
        String source = request.sourceTableName() != null ? request.sourceTableName() : request.sourceTableArn();
        if (access.enforced()) {
            Permissions.table(access, engine, "RestoreTableToPointInTime", source);
            Permissions.restoredTable(access, engine, "RestoreTableToPointInTime", request.targetTableName());
        }
        Instant at = useLatest ? null : Timestamps.instant(request.restoreDateTime());
        TableDefinition restored = engine.restores().toPointInTime(request.sourceTableArn(),
                request.sourceTableName(), request.targetTableName(), useLatest, at,
                TableRequests.restoreOverrides(request));
        response.json().writeFieldName("TableDescription");
        TableDescriptionJson.write(response.json(), restored, engine.catalog(), TableDescriptionJson.View.DESCRIBED);
    }
}

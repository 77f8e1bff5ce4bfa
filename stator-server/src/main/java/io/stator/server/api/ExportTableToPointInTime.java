package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import io.stator.engine.transfer.ExportDescription;
import io.stator.engine.transfer.Exports;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.Timestamps;
import io.stator.server.api.json.TransferJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ExportTableToPointInTimeInput;
import io.stator.server.protocol.request.IncrementalExportSpecification;
import io.stator.server.transfer.Transfers;
import java.io.IOException;

/**
 * ExportTableToPointInTime (the work in {@code engine/transfer/Exports}): the request's own checks in
 * DynamoDB's words (docs/dynamodb/backups.md), then the export's description, IN_PROGRESS.
 */
final class ExportTableToPointInTime implements Action<ExportTableToPointInTimeInput> {

    private final Engine engine;
    private final Transfers transfers;

    ExportTableToPointInTime(Engine engine, Transfers transfers) {
        this.engine = engine;
        this.transfers = transfers;
    }

    @Override
    public void execute(ExportTableToPointInTimeInput request, Authorizer access, ResponseBody response)
            throws IOException {
        boolean incremental = "INCREMENTAL_EXPORT".equals(request.exportType());
        IncrementalExportSpecification spec = request.incrementalExportSpecification();
        if (spec != null && !incremental) {
            throw DynamoDbException.validation(request.exportType() == null
                    ? "Invalid Request: Export Type expected to be Incremental Export when incremental export "
                    + "specification is provided"
                    : "Invalid Request: When Export Type is Full Export , Incremental Export Specification should not "
                    + "be provided");
        }
        if (incremental && spec == null) {
            throw DynamoDbException.validation(
                    "Invalid Request: Incremental Export Specification expected when export type is set as Incremental Export");
        }
        if (request.s3SseKmsKeyId() != null && !"KMS".equals(request.s3SseAlgorithm())) {
            throw DynamoDbException.validation("Invalid Request: KMS Key Id is not supported for this encryption type");
        }
        if (access.enforced()) {
            Permissions.resource(access, engine, "ExportTableToPointInTime", request.tableArn(),
                    Permissions.tableOfArn(engine, request.tableArn()));
        }
        var export = Transfers.require(transfers).exports().start(new Exports.Request(request.tableArn(),
                Timestamps.instant(request.exportTime()), request.clientToken(), request.s3Bucket(), request.s3BucketOwner(),
                request.s3Prefix(), request.s3SseAlgorithm(), request.s3SseKmsKeyId(),
                request.exportFormat() == null ? null : ExportDescription.Format.valueOf(request.exportFormat()),
                request.exportType() == null ? null : ExportDescription.Type.valueOf(request.exportType()),
                spec == null ? null : Timestamps.instant(spec.exportFromTime()),
                spec == null ? null : Timestamps.instant(spec.exportToTime()),
                spec == null || spec.exportViewType() == null ? null
                        : ExportDescription.ViewType.valueOf(spec.exportViewType())));
        response.json().writeFieldName("ExportDescription");
        TransferJson.writeExportDescription(response.json(), export);
    }
}

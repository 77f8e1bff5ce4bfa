package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.Engine;
import io.stator.engine.transfer.ImportDescription;
import io.stator.engine.transfer.Imports;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.TableRequests;
import io.stator.server.api.json.TransferJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ImportTableInput;
import io.stator.server.transfer.Transfers;
import java.io.IOException;

/**
 * ImportTable (the work in {@code engine/transfer/Imports}): the new table is checked as CreateTable
 * checks its request and created CREATING; the answer is the import's description, IN_PROGRESS.
 */
final class ImportTable implements Action<ImportTableInput> {

    private final Engine engine;
    private final Transfers transfers;

    ImportTable(Engine engine, Transfers transfers) {
        this.engine = engine;
        this.transfers = transfers;
    }

    @Override
    public void execute(ImportTableInput request, Authorizer access, ResponseBody response) throws IOException {
        var csv = request.inputFormatOptions() == null ? null : request.inputFormatOptions().csv();
        if (csv != null && !"CSV".equals(request.inputFormat())) {
            throw DynamoDbException.validation("Invalid Request: Unsupported InputFormatOptions for the given input format: "
                    + request.inputFormat() + ".");
        }
        String tableName = request.tableCreationParameters().tableName();
        if (access.enforced()) Permissions.table(access, engine, "ImportTable", tableName);
        Transfers t = Transfers.require(transfers);
        var started = t.imports().start(new Imports.Request(request.clientToken(), request.s3BucketSource().s3Bucket(),
                request.s3BucketSource().s3BucketOwner() == null ? engine.config().accountId()
                        : request.s3BucketSource().s3BucketOwner(),
                request.s3BucketSource().s3KeyPrefix(), ImportDescription.InputFormat.valueOf(request.inputFormat()),
                csv == null ? null : csv.delimiter(), csv == null ? null : csv.headerList(),
                request.inputCompressionType() == null ? null
                        : ImportDescription.Compression.valueOf(request.inputCompressionType()),
                TableRequests.createTable(request.tableCreationParameters())));
        response.json().writeFieldName("ImportTableDescription");
        TransferJson.writeImportDescription(response.json(), started, t.imports().table(started),
                TransferJson.logGroupArn(engine));
    }
}

package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.TransferJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DescribeImportInput;
import io.stator.server.transfer.Transfers;
import java.io.IOException;

/** DescribeImport: the import's description, its counters as they grow. */
final class DescribeImport implements Action<DescribeImportInput> {

    private final Engine engine;
    private final Transfers transfers;

    DescribeImport(Engine engine, Transfers transfers) {
        this.engine = engine;
        this.transfers = transfers;
    }

    @Override
    public void execute(DescribeImportInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) {
            Permissions.resource(access, engine, "DescribeImport", request.importArn(),
                    Permissions.tableOfArn(engine, request.importArn()));
        }
        Transfers t = Transfers.require(transfers);
        var found = t.imports().describe(request.importArn());
        response.json().writeFieldName("ImportTableDescription");
        TransferJson.writeImportDescription(response.json(), found, t.imports().table(found), TransferJson.logGroupArn(engine));
    }
}

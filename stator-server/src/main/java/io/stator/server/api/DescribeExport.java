package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.TransferJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DescribeExportInput;
import io.stator.server.transfer.Transfers;
import java.io.IOException;

/** DescribeExport: the export's description, with its progress (ItemCount, BilledSizeBytes) as it goes. */
final class DescribeExport implements Action<DescribeExportInput> {

    private final Engine engine;
    private final Transfers transfers;

    DescribeExport(Engine engine, Transfers transfers) {
        this.engine = engine;
        this.transfers = transfers;
    }

    @Override
    public void execute(DescribeExportInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) {
            Permissions.resource(access, engine, "DescribeExport", request.exportArn(),
                    Permissions.tableOfArn(engine, request.exportArn()));
        }
        var export = Transfers.require(transfers).exports().describe(request.exportArn());
        response.json().writeFieldName("ExportDescription");
        TransferJson.writeExportDescription(response.json(), export);
    }
}

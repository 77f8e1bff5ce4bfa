package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.engine.transfer.ExportDescription;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.TransferJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ListExportsInput;
import io.stator.server.transfer.Transfers;
import java.io.IOException;
import java.util.List;

/**
 * ListExports: newest first, in progress and failed ones too, 10 a page unless MaxResults says
 * otherwise (as DynamoDB lists them, docs/dynamodb/backups.md); NextToken is the next export's ARN.
 */
final class ListExports implements Action<ListExportsInput> {

    private final Engine engine;
    private final Transfers transfers;

    ListExports(Engine engine, Transfers transfers) {
        this.engine = engine;
        this.transfers = transfers;
    }

    @Override
    public void execute(ListExportsInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) Permissions.account(access, "ListExports");
        List<ExportDescription> all = Transfers.require(transfers).exports().list(request.tableArn());
        int limit = request.maxResults() == null ? 10 : request.maxResults();
        int from = Transfers.pageStart(all.stream().map(ExportDescription::exportArn).toList(), request.nextToken());
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("ExportSummaries");
        for (int i = from; i < Math.min(all.size(), from + limit); i++) TransferJson.writeExportSummary(g, all.get(i));
        g.writeEndArray();
        if (from + limit < all.size()) g.writeStringField("NextToken", all.get(from + limit).exportArn());
    }
}

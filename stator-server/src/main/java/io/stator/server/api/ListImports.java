package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.engine.transfer.ImportDescription;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.TransferJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ListImportsInput;
import io.stator.server.transfer.Transfers;
import java.io.IOException;
import java.util.List;

/** ListImports: newest first, in progress ones too, 10 a page unless PageSize says otherwise. */
final class ListImports implements Action<ListImportsInput> {

    private final Engine engine;
    private final Transfers transfers;

    ListImports(Engine engine, Transfers transfers) {
        this.engine = engine;
        this.transfers = transfers;
    }

    @Override
    public void execute(ListImportsInput request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) Permissions.account(access, "ListImports");
        List<ImportDescription> all = Transfers.require(transfers).imports().list(request.tableArn());
        int limit = request.pageSize() == null ? 10 : request.pageSize();
        int from = Transfers.pageStart(all.stream().map(ImportDescription::importArn).toList(), request.nextToken());
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("ImportSummaryList");
        for (int i = from; i < Math.min(all.size(), from + limit); i++) {
            TransferJson.writeImportSummary(g, all.get(i), TransferJson.logGroupArn(engine));
        }
        g.writeEndArray();
        if (from + limit < all.size()) g.writeStringField("NextToken", token(all.get(from + limit).importArn()));
    }

    /** ListImports' NextToken must be hex (the service model: 112 to 1024 characters of [0-9a-f]{16}+). */
    private static String token(String arn) {
        return Transfers.hexToken(arn);
    }
}

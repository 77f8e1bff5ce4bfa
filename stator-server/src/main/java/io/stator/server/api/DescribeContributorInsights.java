package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.ContributorInsightsJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DescribeContributorInsightsInput;
import java.io.IOException;

/** DescribeContributorInsights: a table's or global index's status, mode, rules and last change. */
final class DescribeContributorInsights implements Action<DescribeContributorInsightsInput> {

    private final Engine engine;

    DescribeContributorInsights(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(DescribeContributorInsightsInput request, Authorizer access, ResponseBody response)
            throws IOException {
        if (access.enforced()) {
            Permissions.tableOrIndex(access, engine, "DescribeContributorInsights", request.tableName(),
                    request.indexName());
        }
        ContributorInsightsJson.writeDescription(response.json(),
                engine.contributorInsights().describe(request.tableName(), request.indexName()));
    }
}

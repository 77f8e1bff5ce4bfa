package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.engine.advisor.ContributorInsights;
import io.stator.engine.table.ContributorInsightsSetting;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.ContributorInsightsJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.UpdateContributorInsightsInput;
import java.io.IOException;

/**
 * UpdateContributorInsights: ENABLE or DISABLE Contributor Insights on a table or a global
 * index (the rules in the engine's {@code ContributorInsights}). It answers the status the request
 * leads to (ENABLING, DISABLING, or the settled one when nothing changes) and the mode.
 */
final class UpdateContributorInsights implements Action<UpdateContributorInsightsInput> {

    private final Engine engine;

    UpdateContributorInsights(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(UpdateContributorInsightsInput request, Authorizer access, ResponseBody response)
            throws IOException {
        if (access.enforced()) {
            Permissions.tableOrIndex(access, engine, "UpdateContributorInsights", request.tableName(), request.indexName());
        }
        ContributorInsights.Description d = engine.contributorInsights().update(request.tableName(), request.indexName(),
                ContributorInsights.Action.valueOf(request.contributorInsightsAction()),
                request.contributorInsightsMode() == null ? null
                        : ContributorInsightsSetting.Mode.valueOf(request.contributorInsightsMode()));
        ContributorInsightsJson.writeSummary(response.json(), d);
    }
}

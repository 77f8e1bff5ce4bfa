package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.Engine;
import io.stator.engine.advisor.ContributorInsights;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.json.ContributorInsightsJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ListContributorInsightsInput;
import java.io.IOException;

/**
 * ListContributorInsights: the tables and global indexes whose Contributor Insights is not
 * DISABLED, a table before its indexes, MaxResults (at most 100, the model's bound) to a page.
 * Without MaxResults, pages of 100; a MaxResults below 1 is read as that default (what DynamoDB
 * answers to one is not on record). Authorized on no resource, as ListTables is (the Service
 * Authorization Reference lists ListContributorInsights without a resource type).
 */
final class ListContributorInsights implements Action<ListContributorInsightsInput> {

    private final Engine engine;

    ListContributorInsights(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(ListContributorInsightsInput request, Authorizer access, ResponseBody response)
            throws IOException {
        if (access.enforced()) Permissions.account(access, "ListContributorInsights");
        int max = request.maxResults() == null || request.maxResults() < 1 ? ContributorInsights.DEFAULT_PAGE
                : request.maxResults();
        ContributorInsights.Page page = engine.contributorInsights().list(request.tableName(), request.nextToken(), max);
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("ContributorInsightsSummaries");
        for (ContributorInsights.Description d : page.summaries()) {
            g.writeStartObject();
            ContributorInsightsJson.writeSummary(g, d);
            g.writeEndObject();
        }
        g.writeEndArray();
        if (page.nextToken() != null) g.writeStringField("NextToken", page.nextToken());
    }
}

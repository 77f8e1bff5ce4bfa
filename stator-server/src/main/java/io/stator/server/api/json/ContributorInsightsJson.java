package io.stator.server.api.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.engine.advisor.ContributorInsights;
import java.io.IOException;

/** Contributor Insights' answers, as DynamoDB writes them (API reference; ack-api-quirks DDB-TABLE-089, -095, -340). */
public final class ContributorInsightsJson {

    private ContributorInsightsJson() {}

    /** UpdateContributorInsights' answer, and each of ListContributorInsights' summaries. */
    public static void writeSummary(JsonGenerator g, ContributorInsights.Description d) throws IOException {
        g.writeStringField("TableName", d.tableName());
        if (d.indexName() != null) g.writeStringField("IndexName", d.indexName());
        g.writeStringField("ContributorInsightsStatus", d.status().name());
        if (d.mode() != null) g.writeStringField("ContributorInsightsMode", d.mode().name());
    }

    /**
     * DescribeContributorInsights' answer: a never-enabled resource shows its names and DISABLED
     * only; the rules only while ENABLED; the failure while FAILED (and DISABLING from it).
     */
    public static void writeDescription(JsonGenerator g, ContributorInsights.Description d) throws IOException {
        g.writeStringField("TableName", d.tableName());
        if (d.indexName() != null) g.writeStringField("IndexName", d.indexName());
        if (!d.rules().isEmpty()) {
            g.writeArrayFieldStart("ContributorInsightsRuleList");
            for (String rule : d.rules()) g.writeString(rule);
            g.writeEndArray();
        }
        g.writeStringField("ContributorInsightsStatus", d.status().name());
        if (d.lastUpdateDateTime() != null) TableDescriptionJson.writeTime(g, "LastUpdateDateTime", d.lastUpdateDateTime());
        if (d.failure() != null) {
            g.writeObjectFieldStart("FailureException");
            g.writeStringField("ExceptionName", d.failure()[0]);
            g.writeStringField("ExceptionDescription", d.failure()[1]);
            g.writeEndObject();
        }
        if (d.mode() != null) g.writeStringField("ContributorInsightsMode", d.mode().name());
    }
}

package io.stator.engine.advisor;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.table.Catalog;
import io.stator.engine.table.ContributorInsightsSetting;
import io.stator.engine.table.ContributorInsightsSetting.Mode;
import io.stator.engine.table.ContributorInsightsSetting.Status;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * UpdateContributorInsights, DescribeContributorInsights and ListContributorInsights: the setting
 * of a table or global index, kept in the table's definition ({@link ContributorInsightsSetting}),
 * and its status, which follows from the time. What DynamoDB does, as probed live (ack-api-quirks,
 * table-sub-resources.md, 2026-10; findings named below):
 * <ul>
 *   <li>ENABLE answers ENABLING, which becomes ENABLED; DISABLE answers DISABLING, which becomes
 *       DISABLED (DDB-TABLE-090). ENABLE on ENABLED in the same mode (ENABLE without a mode means
 *       ACCESSED_AND_THROTTLED_KEYS) and DISABLE on DISABLED or never enabled change nothing and
 *       answer the status (DDB-TABLE-091, -092, -341); ENABLE in another mode is ENABLING again,
 *       the rules keep their timestamp (DDB-TABLE-092, -341); DISABLE answers the current mode,
 *       whatever mode it was sent (DDB-TABLE-092).</li>
 *   <li>Past CloudWatch's quota of 100 Contributor Insights rules (2 per resource, 4 with a sort
 *       key; half that in THROTTLED_KEYS mode), ENABLE answers ENABLING all the same and becomes
 *       FAILED with FailureException LimitExceededException; FAILED stays until DISABLE or another
 *       ENABLE (DDB-TABLE-337, -338, -339).</li>
 *   <li>Per table and per global index; a local index, an unknown index, a missing table:
 *       ResourceNotFoundException "Requested resource not found: Index: I not found for table: T"
 *       or "...: Table: T not found" (DDB-TABLE-094, -097, -161); ENABLE on a table not ACTIVE or an
 *       index not ACTIVE: ValidationException "Table or Index is not in a valid state to update Key
 *       Access Insights: TableStatus must be ACTIVE to enable ContributorInsights." (IndexStatus
 *       for an index) (DDB-TABLE-116; the table's text was recorded cut after "to enable
 *       ContributorIn", completed as the index's).</li>
 *   <li>Describe of a never-enabled resource answers only its names and DISABLED; once changed,
 *       LastUpdateDateTime and the mode too; the rule list only while ENABLED (DDB-TABLE-089,
 *       -340). List leaves out DISABLED entries, a table before its indexes (DDB-TABLE-095, -343).</li>
 * </ul>
 */
public final class ContributorInsights {

    /** CloudWatch's default quota of Contributor Insights rules per account and region (DDB-TABLE-337). */
    public static final int RULE_QUOTA = 100;
    /** ListContributorInsights' page when MaxResults is not given (the model's largest). */
    public static final int DEFAULT_PAGE = 100;

    static final String LIMIT_EXCEEDED = "LimitExceededException";
    static final String LIMIT_EXCEEDED_TEXT = "Amazon CloudWatch Contributor Insights rule limit reached. Please disable "
            + "Contributor Insights for other tables/indexes OR disable other CloudWatch Contributor Insights rules before "
            + "retrying.";

    private final Catalog catalog;
    private final Clock clock;

    public ContributorInsights(Catalog catalog, Clock clock) {
        this.catalog = catalog;
        this.clock = clock;
    }

    /**
     * What Describe (and Update, and each List summary) shows of one resource.
     *
     * @param indexName null for the table
     * @param mode      null when never set
     * @param lastUpdateDateTime null when never changed
     * @param rules     the rule names, empty unless ENABLED
     * @param failure   FailureException's name and text, or null
     */
    public record Description(String tableName, String indexName, Status status, Mode mode, Instant lastUpdateDateTime,
                              List<String> rules, String[] failure) {}

    /** One page of ListContributorInsights. @param nextToken null on the last page */
    public record Page(List<Description> summaries, String nextToken) {}

    public enum Action { ENABLE, DISABLE }

    /** DescribeContributorInsights. */
    public Description describe(String tableNameOrArn, String indexName) {
        TableDefinition table = catalog.require(tableNameOrArn, Catalog.NotFoundMessage.WITH_TABLE_NAME);
        return describe(table, resource(table, indexName), clock.instant());
    }

    /** UpdateContributorInsights: the resource's status once the request is taken. */
    public Description update(String tableNameOrArn, String indexName, Action action, Mode requestedMode) {
        TableDefinition found = catalog.require(tableNameOrArn, Catalog.NotFoundMessage.WITH_TABLE_NAME);
        resource(found, indexName); // ResourceNotFound before anything else
        Instant now = clock.instant();
        TableDefinition updated = catalog.update(found.name(), table -> {
            IndexDefinition index = resource(table, indexName);
            int id = index == null ? 0 : index.id();
            ContributorInsightsSetting current = table.contributorInsights().get(id);
            ContributorInsightsSetting next = next(table, index, current, action, requestedMode, now);
            if (next == current) return table;
            Map<Integer, ContributorInsightsSetting> settings = new HashMap<>();
            table.contributorInsights().forEach((k, v) -> {
                if (k == 0 || table.indexById(k) != null) settings.put(k, v); // a dropped index's goes
            });
            settings.put(id, next);
            TableDefinition.Builder b = table.toBuilder();
            b.contributorInsights = settings;
            return b.build();
        });
        return describe(updated, resource(updated, indexName), now);
    }

    private ContributorInsightsSetting next(TableDefinition table, IndexDefinition index,
                                            ContributorInsightsSetting current, Action action, Mode requestedMode,
                                            Instant now) {
        Status status = current == null ? Status.DISABLED : current.status(now);
        if (action == Action.DISABLE) {
            if (status == Status.DISABLED || status == Status.DISABLING) return current;
            return new ContributorInsightsSetting(Status.DISABLING, current.mode(), now, current.ruleTimestampMillis(),
                    status == Status.FAILED);
        }
        if (table.filling()) throw notActive("TableStatus");
        if (index != null && (index.status() != IndexDefinition.IndexStatus.ACTIVE || index.backfilling())) {
            throw notActive("IndexStatus");
        }
        Mode mode = requestedMode == null ? Mode.ACCESSED_AND_THROTTLED_KEYS : requestedMode;
        if ((status == Status.ENABLED || status == Status.ENABLING) && current.mode() == mode) return current;
        boolean keepRules = status == Status.ENABLED || status == Status.ENABLING;
        long ruleTimestamp = keepRules ? current.ruleTimestampMillis() : now.toEpochMilli();
        int id = index == null ? 0 : index.id();
        boolean fails = rulesInUse(table.id(), id, now) + rules(table, index, mode) > RULE_QUOTA;
        return new ContributorInsightsSetting(Status.ENABLING, mode, now, ruleTimestamp, fails);
    }

    private static DynamoDbException notActive(String which) {
        return DynamoDbException.validation("Table or Index is not in a valid state to update Key Access Insights: "
                + which + " must be ACTIVE to enable ContributorInsights.");
    }

    /** The rules every other resource holds now. */
    private int rulesInUse(long tableId, int resourceId, Instant now) {
        int n = 0;
        for (TableDefinition t : catalog.all()) {
            for (Map.Entry<Integer, ContributorInsightsSetting> e : t.contributorInsights().entrySet()) {
                if (t.id() == tableId && e.getKey() == resourceId) continue;
                IndexDefinition index = e.getKey() == 0 ? null : t.indexById(e.getKey());
                if (e.getKey() != 0 && index == null) continue;
                if (e.getValue().holdsRules(now)) n += rules(t, index, e.getValue().mode());
            }
        }
        return n;
    }

    private static int rules(TableDefinition table, IndexDefinition index, Mode mode) {
        boolean sorted = index == null ? table.keySchema().hasSortKey() : index.hasSortKey();
        int perKind = sorted ? 2 : 1;
        return mode == Mode.THROTTLED_KEYS ? perKind : 2 * perKind;
    }

    /** ListContributorInsights: every resource not DISABLED, tables by name, a table before its indexes. */
    public Page list(String tableNameOrArn, String nextToken, int maxResults) {
        List<TableDefinition> tables;
        if (tableNameOrArn != null) {
            tables = List.of(catalog.require(tableNameOrArn, Catalog.NotFoundMessage.WITH_TABLE_NAME));
        } else {
            tables = new ArrayList<>(catalog.all());
            tables.sort((a, b) -> a.name().compareTo(b.name()));
        }
        Instant now = clock.instant();
        String after = nextToken == null ? null : token(nextToken);
        List<Description> page = new ArrayList<>();
        String last = null;
        boolean more = false;
        for (TableDefinition t : tables) {
            if (t.filling()) continue;
            List<IndexDefinition> resources = new ArrayList<>();
            resources.add(null);
            resources.addAll(t.globalIndexes());
            for (IndexDefinition index : resources) {
                String position = t.name() + "\u0000" + (index == null ? "" : index.name());
                if (after != null && position.compareTo(after) <= 0) continue;
                ContributorInsightsSetting s = t.contributorInsights().get(index == null ? 0 : index.id());
                if (s == null || s.status(now) == Status.DISABLED) continue;
                if (page.size() == maxResults) {
                    more = true;
                    break;
                }
                page.add(describe(t, index, now));
                last = position;
            }
            if (more) break;
        }
        return new Page(page, more ? Base64.getUrlEncoder().withoutPadding()
                .encodeToString(last.getBytes(StandardCharsets.UTF_8)) : null);
    }

    /** The position a NextToken holds; a token this server did not make is refused. */
    private static String token(String nextToken) {
        try {
            String position = new String(Base64.getUrlDecoder().decode(nextToken), StandardCharsets.UTF_8);
            if (position.indexOf('\u0000') > 0) return position;
        } catch (IllegalArgumentException e) {
            // refused below
        }
        // DynamoDB's text for a NextToken it did not make is not on record.
        throw DynamoDbException.validation("Invalid NextToken: " + nextToken);
    }

    /** The global index of that name (null for the table), or DynamoDB's ResourceNotFoundException. */
    private static IndexDefinition resource(TableDefinition table, String indexName) {
        if (indexName == null) return null;
        IndexDefinition index = table.index(indexName);
        if (index == null || !index.global()) {
            throw DynamoDbException.resourceNotFound("Requested resource not found: Index: " + indexName
                    + " not found for table: " + table.name());
        }
        return index;
    }

    /** The setting of a table (index null) or global index at {@code now}. */
    public Description describe(TableDefinition table, IndexDefinition index, Instant now) {
        ContributorInsightsSetting s = table.contributorInsights().get(index == null ? 0 : index.id());
        String indexName = index == null ? null : index.name();
        if (s == null) return new Description(table.name(), indexName, Status.DISABLED, null, null, List.of(), null);
        Status status = s.status(now);
        List<String> rules = status == Status.ENABLED ? ruleNames(table, index, s) : List.of();
        boolean failed = status == Status.FAILED || status == Status.DISABLING && s.failure();
        return new Description(table.name(), indexName, status, s.mode(), s.lastUpdateDateTime(now), rules,
                failed ? new String[] {LIMIT_EXCEEDED, LIMIT_EXCEEDED_TEXT} : null);
    }

    /**
     * The rules' names: DynamoDBContributorInsights-{PKC,SKC,PKT,SKT}-resource-timestamp, the
     * resource "table" or "table-index", the C rules only in ACCESSED_AND_THROTTLED_KEYS mode, the
     * SK rules only with a sort key, in this order (developer guide; AWS CLI example
     * describe-contributor-insights; DDB-TABLE-092, -112).
     */
    static List<String> ruleNames(TableDefinition table, IndexDefinition index, ContributorInsightsSetting s) {
        String resource = table.name() + (index == null ? "" : "-" + index.name());
        boolean sorted = index == null ? table.keySchema().hasSortKey() : index.hasSortKey();
        List<String> kinds = new ArrayList<>();
        if (s.mode() == Mode.ACCESSED_AND_THROTTLED_KEYS) {
            kinds.add("PKC");
            if (sorted) kinds.add("SKC");
        }
        kinds.add("PKT");
        if (sorted) kinds.add("SKT");
        List<String> names = new ArrayList<>(kinds.size());
        for (String k : kinds) names.add("DynamoDBContributorInsights-" + k + "-" + resource + "-" + s.ruleTimestampMillis());
        return names;
    }
}

package io.stator.server.access;

import io.stator.core.expression.Condition;
import io.stator.core.expression.ConditionPaths;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import io.stator.core.expression.UpdateAction;
import io.stator.core.model.AttributeValue;
import io.stator.core.partiql.Statement;
import io.stator.engine.Engine;
import io.stator.engine.partiql.KeyAttributes;
import io.stator.engine.partiql.KeyTerms;
import io.stator.engine.partiql.PartiqlWrites;
import io.stator.engine.partiql.WhereTerms;
import io.stator.engine.read.KeyConditions.KeyCondition;
import io.stator.engine.replication.LegacyGlobalTables;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableArns;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.ItemUpdate;
import io.stator.server.access.AccessRequest;
import io.stator.server.access.Authorizer;
import io.stator.server.protocol.request.WireEnum;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What each action asks the {@link Authorizer}: IAM's action name, the resource's ARN and
 * DynamoDB's condition keys (DynamoDB Developer Guide, "Using IAM policy conditions for
 * fine-grained access control"; Service Authorization Reference, "Actions, resources, and
 * condition keys for Amazon DynamoDB"). Every method here is called only when the authorizer is
 * enforced: a server without --policies builds none of this.
 *
 * <p><b>Where.</b> DynamoDB refuses a caller without permission with AccessDeniedException even
 * for a table that does not exist (it does not tell strangers what exists), so the check comes
 * before the table's lookup. The fine-grained keys are made of the request (its keys, its
 * expressions' attributes), so it comes after the request's own checks; an invalid expression is
 * the request's error whoever sends it. Whether DynamoDB checks a request's validity before or
 * after its permission is not documented: Stator authorizes as soon as the request context can
 * be built, which is after the request's own checks for the item operations, and after the
 * service model's constraints for the table operations (whose other checks are the table's).
 *
 * <p><b>Keys.</b>
 * <ul>
 *   <li>dynamodb:LeadingKeys: the partition key value of each item a request names (the
 *       queried index's partition key for Query); absent for Scan. A number is its decimal text,
 *       a binary its base64.</li>
 *   <li>dynamodb:Attributes: the top-level attribute names the request reads, writes or
 *       evaluates: the key, the item (PutItem), the projection, the condition, the filter, the
 *       key condition, the update's targets and operands ("These attributes can be read,
 *       written, or evaluated in a conditional write or scan filter").</li>
 *   <li>dynamodb:Select: Query's and Scan's Select, or what DynamoDB does without it
 *       (SPECIFIC_ATTRIBUTES with a projection, else ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES on
 *       an index); for GetItem, BatchGetItem and a transaction's Get, which have no Select,
 *       Stator gives the same (SPECIFIC_ATTRIBUTES with a projection, else ALL_ATTRIBUTES), so
 *       that the documented "StringEqualsIfExists dynamodb:Select SPECIFIC_ATTRIBUTES" keeps a
 *       GetItem from reading the attributes dynamodb:Attributes does not list.</li>
 *   <li>dynamodb:ReturnValues: ReturnValues (NONE when not given, as the guide says); in a
 *       transaction, ReturnValuesOnConditionCheckFailure (the guide's example "Prevent information
 *       from being returned on a ConditionCheck failure" conditions it on dynamodb:ReturnValues).</li>
 *   <li>dynamodb:ReturnConsumedCapacity: ReturnConsumedCapacity (NONE when not given).</li>
 *   <li>dynamodb:EnclosingOperation: TransactWriteItems or TransactGetItems for a transaction's
 *       actions, which are authorized as GetItem, PutItem, UpdateItem, DeleteItem and
 *       ConditionCheckItem ("Using IAM with DynamoDB transactions").</li>
 * </ul>
 */
public final class Permissions {

    public static final String TRANSACT_WRITE_ITEMS = "TransactWriteItems";
    public static final String TRANSACT_GET_ITEMS = "TransactGetItems";

    private Permissions() {}

    /** An action on no resource (ListTables, DescribeLimits, DescribeEndpoints): resource "*". */
    public static void account(Authorizer access, String action) {
        access.authorize(new AccessRequest("dynamodb:" + action, "*", Map.of()), null);
    }

    /** A table operation on the table a TableName names (by name or ARN). */
    public static void table(Authorizer access, Engine engine, String action, String tableNameOrArn) {
        table(access, engine, action, tableNameOrArn, new HashMap<>());
    }

    /**
     * A table operation that sets tags (CreateTable's Tags): aws:RequestTag/${TagKey} for each,
     * and aws:TagKeys.
     */
    public static void table(Authorizer access, Engine engine, String action, String tableNameOrArn, Map<String, String> tags) {
        TableArns arns = engine.catalog().arns();
        String name = arns.tableName(tableNameOrArn);
        authorize(access, action, arns.tableArn(name), requestTags(tags, tags.keySet()), engine.catalog().find(name));
    }

    /**
     * A table operation on a table or, when {@code indexName} is given, on one of its indexes (the
     * Contributor Insights actions: the Service Authorization Reference gives them the table and
     * index resources), under the table's policy.
     */
    public static void tableOrIndex(Authorizer access, Engine engine, String action, String tableNameOrArn, String indexName) {
        TableArns arns = engine.catalog().arns();
        String name = arns.tableName(tableNameOrArn);
        String resource = arns.tableArn(name) + (indexName == null ? "" : "/index/" + indexName);
        authorize(access, action, resource, new HashMap<>(), engine.catalog().find(name));
    }

    /**
     * A global table of version 2017.11.29 (Legacy): its ARN, which names no region. Describing
     * one needs that resource only.
     */
    public static void globalTable(Authorizer access, LegacyGlobalTables legacy, String action, String globalTableName) {
        authorize(access, action, legacy.globalTableArn(globalTableName), new HashMap<>(), null);
    }

    /**
     * An operation that changes a legacy global table (CreateGlobalTable, UpdateGlobalTable,
     * UpdateGlobalTableSettings): the global table, then its replica tables, the table of its name
     * in this server's region and in each region the request names (the Service Authorization
     * Reference gives these actions the global-table and table resources; the Developer Guide's
     * "Using IAM with global tables": the permission "for the global table and for each of its
     * replica tables"). The table here is under its own policy and tags.
     */
    public static void globalTableAndReplicas(Authorizer access, Engine engine, LegacyGlobalTables legacy, String action,
                                              String globalTableName, Collection<String> regions) {
        globalTable(access, legacy, action, globalTableName);
        String here = engine.catalog().arns().region();
        Set<String> replicaRegions = new LinkedHashSet<>();
        replicaRegions.add(here);
        replicaRegions.addAll(regions);
        for (String region : replicaRegions) {
            TableDefinition table = region.equals(here) ? engine.catalog().find(globalTableName) : null;
            authorize(access, action, legacy.replicaTableArn(region, globalTableName), new HashMap<>(), table);
        }
    }

    /**
     * The data actions a restore performs on the table it creates ("Using IAM with DynamoDB
     * backup and restore": "DynamoDB read and write permissions on the target table are
     * necessary for restore functionality"; the Service Authorization Reference maps
     * RestoreTableFromBackup and RestoreTableToPointInTime to these IAM actions besides their own).
     */
    private static final List<String> RESTORE_DATA_ACTIONS = List.of("BatchWriteItem", "DeleteItem", "GetItem",
            "PutItem", "Query", "Scan", "UpdateItem");

    /** A restore's target table: its own action there, then every data action it performs there. */
    public static void restoredTable(Authorizer access, Engine engine, String action, String targetTableName) {
        table(access, engine, action, targetTableName);
        for (String data : RESTORE_DATA_ACTIONS) table(access, engine, data, targetTableName);
    }

    /**
     * An operation on a ResourceArn (tagging, resource policies): the ARN as given, under the
     * policy of the table it names, when it names one.
     */
    public static void resource(Authorizer access, Engine engine, String action, String resourceArn, TableDefinition table) {
        authorize(access, action, resourceArn, new HashMap<>(), table);
    }

    /**
     * An operation on a ResourceArn that sets or removes tags: TagResource (aws:RequestTag/${TagKey}
     * and aws:TagKeys), UntagResource (aws:TagKeys, {@code tags} empty).
     */
    public static void tagging(Authorizer access, String action, String resourceArn, TableDefinition table,
                        Map<String, String> tags, Collection<String> tagKeys) {
        authorize(access, action, resourceArn, requestTags(tags, tagKeys), table);
    }

    /**
     * The one place a request context is completed and asked: the table's tags as
     * aws:ResourceTag/${TagKey} (attribute-based access control: every DynamoDB action on a table,
     * its indexes and streams lists it), then the identity's and the table's policies decide.
     */
    private static void authorize(Authorizer access, String action, String resourceArn, Map<String, List<String>> keys,
                                  TableDefinition table) {
        if (table != null) {
            for (Map.Entry<String, String> tag : table.tags().entrySet()) {
                keys.put("aws:resourcetag/" + tag.getKey().toLowerCase(Locale.ROOT), List.of(tag.getValue()));
            }
        }
        access.authorize(new AccessRequest("dynamodb:" + action, resourceArn, keys), policyOf(table));
    }

    private static Map<String, List<String>> requestTags(Map<String, String> tags, Collection<String> tagKeys) {
        Map<String, List<String>> keys = new HashMap<>();
        for (Map.Entry<String, String> tag : tags.entrySet()) {
            keys.put("aws:requesttag/" + tag.getKey().toLowerCase(Locale.ROOT), List.of(tag.getValue()));
        }
        if (!tagKeys.isEmpty()) keys.put("aws:tagkeys", List.copyOf(tagKeys));
        return keys;
    }

    /**
     * The table a ResourceArn names, when it is one of this server's tables (or one of their
     * indexes or streams); null otherwise: the operation reports what is wrong with the ARN.
     */
    public static TableDefinition tableOfArn(Engine engine, String resourceArn) {
        TableArns arns = engine.catalog().arns();
        TableArns.Arn arn = TableArns.Arn.parse(resourceArn);
        if (arn == null || !arn.service().equals("dynamodb") || !arn.region().equals(arns.region())
                || !arn.accountId().equals(arns.accountId()) || !arn.resource().startsWith("table/")) {
            return null;
        }
        String rest = arn.resource().substring("table/".length());
        int slash = rest.indexOf('/');
        return engine.catalog().find(slash < 0 ? rest : rest.substring(0, slash));
    }

    /** The condition keys of one item operation, built as the request is read. */
    public static final class Keys {
        private final Map<String, List<String>> keys = new HashMap<>();
        private final Set<String> attributes = new LinkedHashSet<>();

        public Keys leadingKey(AttributeValue partitionKeyValue) {
            if (partitionKeyValue != null) {
                String text = text(partitionKeyValue);
                if (text != null) keys.computeIfAbsent("dynamodb:leadingkeys", k -> new ArrayList<>()).add(text);
            }
            return this;
        }

        /** The key's (or item's) partition key value, when the table is known. */
        public Keys leadingKeyOf(TableDefinition table, Map<String, AttributeValue> keyOrItem) {
            return table == null ? this : leadingKey(keyOrItem.get(table.keySchema().partitionKey()));
        }

        public Keys attributes(Collection<String> names) {
            attributes.addAll(names);
            return this;
        }

        public Keys paths(Collection<Path> paths) {
            if (paths != null) for (Path p : paths) attributes.add(p.topLevelName());
            return this;
        }

        public Keys condition(Condition condition) {
            if (condition != null) attributes.addAll(ConditionPaths.topLevelNames(condition));
            return this;
        }

        public Keys keyConditions(Map<String, KeyCondition> conditions) {
            attributes.addAll(conditions.keySet());
            return this;
        }

        public Keys update(ItemUpdate update) {
            if (update == null) return this;
            paths(update.targets());
            if (update instanceof ItemUpdate.Expression e) {
                for (UpdateAction a : e.actions()) {
                    switch (a) {
                        case UpdateAction.Set s -> operand(s.value());
                        case UpdateAction.Add add -> operand(add.value());
                        case UpdateAction.Delete d -> operand(d.value());
                        case UpdateAction.Remove r -> { }
                    }
                }
            }
            return this;
        }

        private void operand(Operand o) {
            switch (o) {
                case Operand.PathOperand p -> attributes.add(p.path().topLevelName());
                case Operand.FunctionCall f -> f.arguments().forEach(this::operand);
                case Operand.Arithmetic a -> {
                    operand(a.left());
                    operand(a.right());
                }
                default -> { }
            }
        }

        public Keys value(String key, String value) {
            if (value != null) keys.put(key, List.of(value));
            return this;
        }

        public Keys select(String select) { return value("dynamodb:select", select); }

        public Keys returnValues(String returnValues) {
            return value("dynamodb:returnvalues", returnValues == null ? "NONE" : returnValues);
        }

        public Keys returnConsumedCapacity(String returnConsumedCapacity) {
            return value("dynamodb:returnconsumedcapacity", returnConsumedCapacity == null ? "NONE"
                    : returnConsumedCapacity);
        }

        /** A model enum's value as the condition key compares it: its wire spelling. */
        public Keys returnConsumedCapacity(WireEnum returnConsumedCapacity) {
            return returnConsumedCapacity(returnConsumedCapacity == null ? null : returnConsumedCapacity.wireName());
        }

        public Keys returnValues(WireEnum returnValues) {
            return returnValues(returnValues == null ? null : returnValues.wireName());
        }

        public Keys enclosingOperation(String operation) { return value("dynamodb:enclosingoperation", operation); }

        public Keys fullTableScan(boolean scan) { return value("dynamodb:fulltablescan", Boolean.toString(scan)); }

        public Map<String, List<String>> build() {
            keys.put("dynamodb:attributes", List.copyOf(attributes));
            return keys;
        }
    }

    /**
     * An item operation on a table (or, for Query and Scan, an index): the resource is the
     * table's ARN, or the index's ({@code table/T/index/I}); the policy is the table's, which
     * governs its indexes too.
     */
    public static void item(Authorizer access, Engine engine, String action, String tableNameOrArn, String indexName,
                     Keys keys) {
        TableArns arns = engine.catalog().arns();
        String name = arns.tableName(tableNameOrArn);
        String resource = arns.tableArn(name) + (indexName == null ? "" : "/index/" + indexName);
        authorize(access, action, resource, keys.build(), engine.catalog().find(name));
    }

    /**
     * A PartiQL statement (ExecuteStatement, BatchExecuteStatement, ExecuteTransaction), with the
     * condition keys the Service Authorization Reference gives its action: PartiQLSelect
     * (Attributes, EnclosingOperation, FullTableScan, LeadingKeys, Select), PartiQLInsert
     * (Attributes, EnclosingOperation, LeadingKeys), PartiQLUpdate and PartiQLDelete (the same
     * and ReturnValues). The statement is resolved as it will run: the table or index, the
     * partition keys its WHERE fixes (the SELECT's plan, {@code engine/partiql/KeyTerms}; an
     * INSERT's item's; an UPDATE's or DELETE's equality), and whether a SELECT scans the whole
     * table or index ("Bool": {"dynamodb:FullTableScan": "true"} is AWS's documented way to deny
     * that, "IAM security policies with PartiQL for DynamoDB", example 6). The attributes are
     * those the statement reads, writes or tests, as for the JSON API. An EXISTS is a SELECT.
     *
     * @param enclosingOperation "ExecuteTransaction" for a transaction's statements, else null
     */
    public static void statement(Authorizer access, Engine engine, Statement statement, String enclosingOperation) {
        TableDefinition table = find(engine, statement.tableName());
        Keys keys = new Keys().enclosingOperation(enclosingOperation);
        switch (statement) {
            case Statement.Select s -> select(access, engine, table, s, keys);
            case Statement.Exists e -> select(access, engine, table, e.select(), keys);
            case Statement.Insert s -> item(access, engine, "PartiQLInsert", s.tableName(), null,
                    keys.leadingKeyOf(table, s.item()).attributes(s.item().keySet()));
            case Statement.Update s -> item(access, engine, "PartiQLUpdate", s.tableName(), null,
                    keys.leadingKey(partitionKeyEquality(table, s.where())).condition(s.where())
                            .update(new ItemUpdate.Expression(s.actions()))
                            .returnValues(PartiqlWrites.returnValues(s.returning()).name()));
            case Statement.Delete s -> item(access, engine, "PartiQLDelete", s.tableName(), null,
                    keys.leadingKey(partitionKeyEquality(table, s.where())).condition(s.where())
                            .returnValues(PartiqlWrites.returnValues(s.returning()).name()));
        }
    }

    private static void select(Authorizer access, Engine engine, TableDefinition table, Statement.Select s, Keys keys) {
        keys.condition(s.where()).paths(s.projection())
                .select(effectiveSelect(null, s.projection() != null, s.indexName() != null));
        if (s.orderBy() != null) keys.paths(List.of(s.orderBy()));
        KeyAttributes target = table == null ? null : KeyAttributes.of(table, s.indexName());
        if (target != null) {
            // Unknown for a table or index that does not exist: the statement fails on that.
            KeyTerms plan = KeyTerms.of(WhereTerms.terms(s.where()), target);
            keys.fullTableScan(!plan.query());
            for (AttributeValue v : plan.partitionKeyValues(target)) keys.leadingKey(v);
        }
        item(access, engine, "PartiQLSelect", s.tableName(), s.indexName(), keys);
    }

    /** The partition key value an UPDATE's or DELETE's WHERE fixes, or null. */
    private static AttributeValue partitionKeyEquality(TableDefinition table, Condition where) {
        if (table == null) return null;
        for (Condition t : WhereTerms.terms(where)) {
            AttributeValue v = WhereTerms.equality(t, table.keySchema().partitionKey());
            if (v != null) return v;
        }
        return null;
    }

    /** The table a request names, if it exists (for its key schema); its absence is reported later. */
    public static TableDefinition find(Engine engine, String tableNameOrArn) {
        return engine.catalog().find(engine.catalog().arns().tableName(tableNameOrArn));
    }

    /** The partition key attribute of the queried index, or of the table. */
    public static String partitionKey(TableDefinition table, String indexName) {
        if (indexName != null) {
            IndexDefinition index = table.index(indexName);
            return index == null || index.partitionKey().isEmpty() ? null : index.partitionKey().get(0).name();
        }
        return table.keySchema().partitionKey();
    }

    /** Select as DynamoDB applies it when the request leaves it out. */
    public static String effectiveSelect(io.stator.server.protocol.request.Select select, boolean projected, boolean onIndex) {
        if (select != null) return select.wireName();
        if (projected) return "SPECIFIC_ATTRIBUTES";
        return onIndex ? "ALL_PROJECTED_ATTRIBUTES" : "ALL_ATTRIBUTES";
    }

    private static String policyOf(TableDefinition table) {
        return table == null || table.resourcePolicy() == null ? null : table.resourcePolicy().document();
    }

    private static String text(AttributeValue v) {
        return switch (v) {
            case AttributeValue.S s -> s.value();
            case AttributeValue.N n -> n.value().toString();
            case AttributeValue.B b -> Base64.getEncoder().encodeToString(b.value());
            default -> null;
        };
    }
}

package io.stator.server.api;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableDefinition.AttributeDefinition;
import io.stator.engine.table.TableDefinition.BillingMode;
import io.stator.engine.table.TableDefinition.ProvisionedThroughput;
import io.stator.engine.table.TableDefinition.StreamSpecification;
import io.stator.engine.table.TableDefinition.TableClass;
import io.stator.engine.table.TableDefinition.WarmThroughput;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.time.Instant;
import io.stator.engine.table.IndexDefinition;
import java.util.Set;

/**
 * CreateTable. The checks run in DynamoDB's order: billing mode against throughput, throughput
 * bounds, the key schema against the attribute definitions, then streams, encryption, class,
 * tags, on-demand and warm throughput; then the quotas (LimitExceededException); the name is
 * checked for uniqueness last, by the catalog.
 *
 * <p>The table is usable as soon as this returns. The response says CREATING, as DynamoDB's
 * does, and DescribeTable says ACTIVE from the first call, so waiters finish at once.
 */
final class CreateTable implements Action {

    private static final String ON_DEMAND_INITIAL_THROUGHPUT = "initial throughput for OnDemand. See: "
            + "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html"
            + "#on-demand-capacity-mode-initial";

    private final Engine engine;

    CreateTable(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        BillingMode billingMode = request.has("BillingMode")
                ? BillingMode.valueOf(request.string("BillingMode")) : BillingMode.PROVISIONED;
        Struct throughput = request.struct("ProvisionedThroughput");
        checkThroughput(billingMode, throughput);
        KeySchema keySchema = keySchema(request);
        NotYetSupported.refuse(request, "ResourcePolicy", "GlobalTableSourceArn", "GlobalTableSettingsReplicationMode");

        TableDefinition.Builder table = new TableDefinition.Builder();
        table.name = engine.catalog().arns().tableName(request.string("TableName"));
        table.keySchema = keySchema;
        table.attributeDefinitions = new ArrayList<>();
        for (Struct d : request.structList("AttributeDefinitions")) {
            table.attributeDefinitions.add(new AttributeDefinition(d.string("AttributeName"),
                    AttributeValue.Type.valueOf(d.string("AttributeType"))));
        }
        table.billingMode = billingMode;
        Map<String, AttributeValue.Type> types = new LinkedHashMap<>();
        for (AttributeDefinition d : table.attributeDefinitions) types.put(d.name(), d.type());
        Set<String> indexNames = new HashSet<>();
        Instant now = engine.config().clock().instant();
        table.localIndexes = IndexSpecs.localIndexes(request, keySchema, types, indexNames, now, 1);
        table.globalIndexes = IndexSpecs.globalIndexes(request, types, indexNames, billingMode, now,
                1 + table.localIndexes.size());
        table.lastIndexId = table.localIndexes.size() + table.globalIndexes.size();
        List<IndexDefinition> all = new ArrayList<>(table.localIndexes);
        all.addAll(table.globalIndexes);
        IndexSpecs.checkProjectedAttributeCount(all);
        table.throughput = throughput == null ? ProvisionedThroughput.ZERO
                : new ProvisionedThroughput(throughput.longValue("ReadCapacityUnits"),
                        throughput.longValue("WriteCapacityUnits"), null, null, 0);
        Struct stream = request.struct("StreamSpecification");
        if (stream != null) setStream(table, stream);
        Struct sse = request.struct("SSESpecification");
        if (sse != null) table.sse = TableSettings.sse(sse, engine.config());
        table.tableClass = request.has("TableClass")
                ? TableSettings.tableClass(request.string("TableClass")) : TableClass.STANDARD;
        table.deletionProtectionEnabled = request.bool("DeletionProtectionEnabled", false);
        table.tags = request.has("Tags") ? TagRules.parseTags(request.structList("Tags")) : new LinkedHashMap<>();
        TagRules.checkCount(table.tags.size());
        // DynamoDB takes an empty OnDemandThroughput or WarmThroughput here as not given.
        if (request.hasContent("OnDemandThroughput")) {
            Struct onDemand = request.struct("OnDemandThroughput");
            if (billingMode == BillingMode.PROVISIONED) throw TableSettings.onDemandWhenProvisioned(onDemand);
            table.onDemandThroughput = TableSettings.onDemandThroughput(onDemand,
                    TableSettings.NO_ON_DEMAND_MAXIMUMS, false);
        }
        if (request.hasContent("WarmThroughput")) table.warmThroughput = warmThroughput(request, table);

        // Quotas come after every validation error.
        if (throughput != null) TableSettings.checkThroughputQuota(throughput, engine.config().region());
        if (table.onDemandThroughput != null) {
            TableSettings.checkOnDemandQuota(table.onDemandThroughput, engine.config().region());
        }
        TableDefinition created = engine.catalog().create(table);
        response.json().writeFieldName("TableDescription");
        TableDescriptionJson.write(response.json(), created, engine.catalog(), TableDescriptionJson.View.CREATED);
    }

    private static void checkThroughput(BillingMode billingMode, Struct throughput) {
        if (billingMode == BillingMode.PAY_PER_REQUEST) {
            if (throughput != null) {
                throw DynamoDbException.invalidParameter("Neither ReadCapacityUnits nor WriteCapacityUnits can be "
                        + "specified when BillingMode is PAY_PER_REQUEST");
            }
        } else {
            if (throughput == null) {
                throw DynamoDbException.invalidParameter("ReadCapacityUnits and WriteCapacityUnits must both be "
                        + "specified when BillingMode is PROVISIONED");
            }
            TableSettings.checkThroughputBounds(throughput);
        }
    }

    /**
     * The key schema, checked against the attribute definitions. (The model's constraints have
     * already made sure there are one or two key elements, each with a name and a key type.)
     */
    private static KeySchema keySchema(Struct request) {
        List<Struct> definitions = request.structList("AttributeDefinitions");
        List<Struct> keySchema = request.structList("KeySchema");
        List<String> definedNames = new ArrayList<>();
        for (Struct d : definitions) definedNames.add(d.string("AttributeName"));
        List<String> keyNames = new ArrayList<>();
        for (Struct k : keySchema) keyNames.add(k.string("AttributeName"));
        if (keyNames.size() > definedNames.size()) {
            throw DynamoDbException.validation("Invalid KeySchema: Some index key attribute have no definition");
        }
        if (!definedNames.containsAll(keyNames)) {
            throw DynamoDbException.invalidParameter("Some index key attributes are not defined in "
                    + "AttributeDefinitions. Keys: [" + String.join(", ", keyNames) + "], AttributeDefinitions: ["
                    + String.join(", ", definedNames) + "]");
        }
        if (keyNames.size() == 2 && keyNames.get(0).equals(keyNames.get(1))) {
            throw DynamoDbException.validation(
                    "Both the Hash Key and the Range Key element in the KeySchema have the same name");
        }
        if (!"HASH".equals(keySchema.get(0).string("KeyType"))) {
            throw DynamoDbException.validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
        }
        if (keySchema.size() == 2 && !"RANGE".equals(keySchema.get(1).string("KeyType"))) {
            throw DynamoDbException.validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
        }
        Set<String> seen = new HashSet<>();
        for (String name : definedNames) {
            if (!seen.add(name)) throw DynamoDbException.validation("Attribute Name is duplicated: " + name);
        }
        String partitionKey = keyNames.get(0);
        String sortKey = keyNames.size() == 2 ? keyNames.get(1) : null;
        KeySchema schema = new KeySchema(partitionKey, typeOf(definitions, partitionKey), sortKey,
                sortKey == null ? null : typeOf(definitions, sortKey));
        // With secondary indexes, definitions beyond the table's key are the indexes' keys.
        if (request.has("LocalSecondaryIndexes") || request.has("GlobalSecondaryIndexes")) {
            IndexSpecs.checkDefinitionsUsed(definedNames, schema, request);
        } else if (keySchema.size() != definitions.size()) {
            throw DynamoDbException.invalidParameter("Number of attributes in KeySchema does not exactly match "
                    + "number of attributes defined in AttributeDefinitions");
        }
        return schema;
    }

    private static AttributeValue.Type typeOf(List<Struct> definitions, String name) {
        for (Struct d : definitions) {
            if (d.string("AttributeName").equals(name)) return AttributeValue.Type.valueOf(d.string("AttributeType"));
        }
        throw new IllegalStateException("undefined key attribute " + name);
    }

    private void setStream(TableDefinition.Builder table, Struct stream) {
        boolean enabled = stream.bool("StreamEnabled");
        String viewType = stream.string("StreamViewType");
        if (!enabled && viewType != null) {
            throw DynamoDbException.invalidParameter(
                    "Table is being created with a stream disabled, UpdateViewType should not be specified");
        }
        if (enabled && viewType == null) {
            throw DynamoDbException.invalidParameter(
                    "Table is being created with a stream enabled, UpdateViewType is required");
        }
        if (enabled) {
            table.stream = new StreamSpecification(true, TableSettings.streamViewType(viewType));
            table.latestStreamLabel = TableSettings.streamLabel(engine.config().clock().instant());
        }
    }

    /** A new table's warm throughput: not below the on-demand initial throughput, or the provisioned one. */
    private static WarmThroughput warmThroughput(Struct request, TableDefinition.Builder table) {
        Struct warm = request.struct("WarmThroughput");
        if (table.billingMode == BillingMode.PAY_PER_REQUEST) {
            return TableSettings.warmThroughput(warm, WarmThroughput.ON_DEMAND_BASELINE,
                    ON_DEMAND_INITIAL_THROUGHPUT, ON_DEMAND_INITIAL_THROUGHPUT);
        }
        ProvisionedThroughput p = table.throughput;
        return TableSettings.warmThroughput(warm, new WarmThroughput(p.readCapacityUnits(), p.writeCapacityUnits()),
                "ReadCapacityUnits of ProvisionedThroughput", "WriteCapacityUnits of ProvisionedThroughput");
    }
}

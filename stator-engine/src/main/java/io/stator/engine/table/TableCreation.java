package io.stator.engine.table;

import io.stator.core.error.DynamoDbException;
import io.stator.core.model.AttributeValue;
import io.stator.engine.table.TableDefinition.AttributeDefinition;
import io.stator.engine.table.TableDefinition.BillingMode;
import io.stator.engine.table.TableDefinition.ProvisionedThroughput;
import io.stator.engine.table.TableDefinition.StreamSpecification;
import io.stator.engine.table.TableDefinition.TableClass;
import io.stator.engine.table.TableDefinition.WarmThroughput;
import io.stator.engine.table.TableSpecs.KeyElement;
import io.stator.engine.table.TableSpecs.Stream;
import io.stator.engine.table.TableSpecs.Throughput;
import io.stator.engine.table.TableSpecs.Warm;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CreateTable's rules: a {@link CreateTableSpec} checked in DynamoDB's order and made into a
 * table definition. The order: billing mode against throughput, throughput bounds, the key
 * schema against the attribute definitions, then the indexes, streams, encryption, class, tags,
 * on-demand and warm throughput; then the quotas (LimitExceededException); the name is checked
 * for uniqueness last, by the catalog.
 */
public final class TableCreation {

    private static final String ON_DEMAND_INITIAL_THROUGHPUT = "initial throughput for OnDemand. See: "
            + "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/on-demand-capacity-mode.html"
            + "#on-demand-capacity-mode-initial";

    private TableCreation() {}

    /** The definition of the table to create (its id, TableId and creation time come from the catalog). */
    public static TableDefinition.Builder definition(CreateTableSpec request, TableArns arns, Clock clock) {
        BillingMode billingMode = request.billingMode() != null
                ? BillingMode.valueOf(request.billingMode()) : BillingMode.PROVISIONED;
        Throughput throughput = request.throughput();
        checkThroughput(billingMode, throughput);
        KeySchema keySchema = keySchema(request);

        TableDefinition.Builder table = new TableDefinition.Builder();
        table.name = arns.tableName(request.tableName());
        table.keySchema = keySchema;
        table.attributeDefinitions = new ArrayList<>(request.attributeDefinitions());
        table.billingMode = billingMode;
        Map<String, AttributeValue.Type> types = new LinkedHashMap<>();
        for (AttributeDefinition d : table.attributeDefinitions) types.put(d.name(), d.type());
        Set<String> indexNames = new HashSet<>();
        Instant now = clock.instant();
        table.localIndexes = IndexSpecs.localIndexes(request.localIndexes(), keySchema, types, indexNames, now, 1);
        table.globalIndexes = IndexSpecs.globalIndexes(request.globalIndexes(), types, indexNames, billingMode, now,
                1 + table.localIndexes.size());
        table.vectorIndexes = VectorIndexSpecs.vectorIndexes(request.vectorIndexes(), types, indexNames, billingMode,
                now, 1 + table.localIndexes.size() + table.globalIndexes.size());
        table.lastIndexId = table.localIndexes.size() + table.globalIndexes.size() + table.vectorIndexes.size();
        List<IndexDefinition> all = new ArrayList<>(table.localIndexes);
        all.addAll(table.globalIndexes);
        IndexSpecs.checkProjectedAttributeCount(all);
        table.throughput = throughput == null ? ProvisionedThroughput.ZERO
                : new ProvisionedThroughput(throughput.readCapacityUnits(), throughput.writeCapacityUnits(), null, null, 0);
        if (request.stream() != null) setStream(table, request.stream(), clock.instant());
        if (request.sse() != null) table.sse = TableSettings.sse(request.sse(), arns);
        table.tableClass = request.tableClass() != null
                ? TableSettings.tableClass(request.tableClass()) : TableClass.STANDARD;
        table.deletionProtectionEnabled = Boolean.TRUE.equals(request.deletionProtectionEnabled());
        table.tags = request.tags() != null ? TagRules.parseTags(request.tags()) : new LinkedHashMap<>();
        TagRules.checkCount(table.tags.size());
        if (request.onDemand() != null) {
            if (billingMode == BillingMode.PROVISIONED) throw TableSettings.onDemandWhenProvisioned(request.onDemand());
            table.onDemandThroughput = TableSettings.onDemandThroughput(request.onDemand(),
                    TableSettings.NO_ON_DEMAND_MAXIMUMS, false);
        }
        if (request.warm() != null) table.warmThroughput = warmThroughput(request.warm(), table);
        if (request.resourcePolicy() != null) {
            table.resourcePolicy = new ResourcePolicy(request.resourcePolicy(),
                    ResourcePolicies.revisionId(now.toEpochMilli(), null));
        }

        // Quotas come after every validation error.
        if (throughput != null) TableSettings.checkThroughputQuota(throughput, arns.region());
        if (table.onDemandThroughput != null) TableSettings.checkOnDemandQuota(table.onDemandThroughput, arns.region());
        return table;
    }

    private static void checkThroughput(BillingMode billingMode, Throughput throughput) {
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
     * The key schema, checked against the attribute definitions. (The service model's
     * constraints have already made sure there are one or two key elements, each with a name
     * and a key type.)
     */
    private static KeySchema keySchema(CreateTableSpec request) {
        List<AttributeDefinition> definitions = request.attributeDefinitions();
        List<KeyElement> keySchema = request.keySchema();
        List<String> definedNames = new ArrayList<>();
        for (AttributeDefinition d : definitions) definedNames.add(d.name());
        List<String> keyNames = new ArrayList<>();
        for (KeyElement k : keySchema) keyNames.add(k.attributeName());
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
        if (!"HASH".equals(keySchema.get(0).keyType())) {
            throw DynamoDbException.validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
        }
        if (keySchema.size() == 2 && !"RANGE".equals(keySchema.get(1).keyType())) {
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
        Map<String, AttributeValue.Type> types = new LinkedHashMap<>();
        for (AttributeDefinition d : definitions) types.put(d.name(), d.type());
        VectorIndexSpecs.checkDefinitions(request.vectorIndexes(), types);
        // With secondary indexes, definitions beyond the table's key are the indexes' keys.
        if (request.localIndexes() != null || request.globalIndexes() != null || request.vectorIndexes() != null) {
            IndexSpecs.checkDefinitionsUsed(definedNames, schema, request);
        } else if (keySchema.size() != definitions.size()) {
            throw DynamoDbException.invalidParameter("Number of attributes in KeySchema does not exactly match "
                    + "number of attributes defined in AttributeDefinitions");
        }
        return schema;
    }

    private static AttributeValue.Type typeOf(List<AttributeDefinition> definitions, String name) {
        for (AttributeDefinition d : definitions) if (d.name().equals(name)) return d.type();
        throw new IllegalStateException("undefined key attribute " + name);
    }

    private static void setStream(TableDefinition.Builder table, Stream stream, Instant now) {
        boolean enabled = stream.enabled();
        String viewType = stream.viewType();
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
            table.latestStreamLabel = TableSettings.streamLabel(now);
        }
    }

    /** A new table's warm throughput: not below the on-demand initial throughput, or the provisioned one. */
    private static WarmThroughput warmThroughput(Warm warm, TableDefinition.Builder table) {
        if (table.billingMode == BillingMode.PAY_PER_REQUEST) {
            return TableSettings.warmThroughput(warm, WarmThroughput.ON_DEMAND_BASELINE,
                    ON_DEMAND_INITIAL_THROUGHPUT, ON_DEMAND_INITIAL_THROUGHPUT);
        }
        ProvisionedThroughput p = table.throughput;
        return TableSettings.warmThroughput(warm, new WarmThroughput(p.readCapacityUnits(), p.writeCapacityUnits()),
                "ReadCapacityUnits of ProvisionedThroughput", "WriteCapacityUnits of ProvisionedThroughput");
    }
}

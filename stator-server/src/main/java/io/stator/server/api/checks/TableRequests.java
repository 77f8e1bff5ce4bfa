package io.stator.server.api.checks;

import io.stator.core.model.AttributeValue;
import io.stator.engine.table.CreateTableSpec;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.table.TableRestores;
import io.stator.engine.table.TableSpecs;
import io.stator.engine.table.UpdateTableSpec;
import io.stator.server.protocol.request.AttributeDefinition;
import io.stator.server.protocol.request.CreateTableInput;
import io.stator.server.protocol.request.CreateVectorIndexAction;
import io.stator.server.protocol.request.GlobalSecondaryIndex;
import io.stator.server.protocol.request.GlobalSecondaryIndexUpdate;
import io.stator.server.protocol.request.KeySchemaElement;
import io.stator.server.protocol.request.LocalSecondaryIndex;
import io.stator.server.protocol.request.OnDemandThroughput;
import io.stator.server.protocol.request.Projection;
import io.stator.server.protocol.request.ProvisionedThroughput;
import io.stator.server.protocol.request.RestoreTableFromBackupInput;
import io.stator.server.protocol.request.RestoreTableToPointInTimeInput;
import io.stator.server.protocol.request.SSESpecification;
import io.stator.server.protocol.request.SearchSchemaElement;
import io.stator.server.protocol.request.StreamSpecification;
import io.stator.server.protocol.request.TableCreationParameters;
import io.stator.server.protocol.request.Tag;
import io.stator.server.protocol.request.UpdateTableInput;
import io.stator.server.protocol.request.VectorAttributeDefinition;
import io.stator.server.protocol.request.VectorIndexUpdate;
import io.stator.server.protocol.request.WarmThroughput;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * CreateTable's and UpdateTable's requests as the engine's table specs ({@link TableSpecs}).
 * Nothing is checked here: the engine checks the specs in DynamoDB's order.
 */
public final class TableRequests {

    private TableRequests() {}

    /** @param resourcePolicy the request's ResourcePolicy, checked and in its canonical form, or null */
    public static CreateTableSpec createTable(CreateTableInput r, String resourcePolicy) {
        return new CreateTableSpec(r.tableName(), attributeDefinitions(r.attributeDefinitions()),
                keySchema(r.keySchema()), r.billingMode(), throughput(r.provisionedThroughput()),
                map(r.localSecondaryIndexes(), TableRequests::localIndex),
                map(r.globalSecondaryIndexes(), TableRequests::globalIndex), stream(r.streamSpecification()),
                sse(r.sseSpecification()), r.tableClass(), r.deletionProtectionEnabled(), map(r.tags(), TableRequests::tag),
                onDemand(r.onDemandThroughput()), warm(r.warmThroughput()), resourcePolicy,
                map(r.vectorIndexes(), i -> vectorIndex(i.indexName(), i.vectorAttribute(), i.searchSchema(),
                        i.projection(), i.dimensions(), i.distanceFunction())));
    }

    /** ImportTable's TableCreationParameters: CreateTable's members an import may give. */
    public static CreateTableSpec createTable(TableCreationParameters r) {
        return new CreateTableSpec(r.tableName(), attributeDefinitions(r.attributeDefinitions()),
                keySchema(r.keySchema()), r.billingMode(), throughput(r.provisionedThroughput()), null,
                map(r.globalSecondaryIndexes(), TableRequests::globalIndex), null, sse(r.sseSpecification()), null, null,
                null, onDemand(r.onDemandThroughput()), null, null,
                map(r.vectorIndexes(), i -> vectorIndex(i.indexName(), i.vectorAttribute(), i.searchSchema(),
                        i.projection(), i.dimensions(), i.distanceFunction())));
    }

    public static UpdateTableSpec updateTable(UpdateTableInput r) {
        List<GlobalSecondaryIndexUpdate> indexUpdates = r.globalSecondaryIndexUpdates();
        return new UpdateTableSpec(r.tableName(), attributeDefinitions(r.attributeDefinitions()), r.billingMode(),
                throughput(r.provisionedThroughput()), stream(r.streamSpecification()),
                indexUpdates == null || indexUpdates.isEmpty() ? null : map(indexUpdates, TableRequests::indexUpdate),
                sse(r.sseSpecification()), r.tableClass(), r.deletionProtectionEnabled(), onDemand(r.onDemandThroughput()),
                warm(r.warmThroughput()), r.vectorIndexUpdates() == null || r.vectorIndexUpdates().isEmpty() ? null
                        : map(r.vectorIndexUpdates(), TableRequests::vectorIndexUpdate));
    }

    private static TableSpecs.VectorIndexSpec vectorIndex(String name, VectorAttributeDefinition attribute,
                                                          List<SearchSchemaElement> schema, Projection projection,
                                                          Long dimensions, String distanceFunction) {
        return new TableSpecs.VectorIndexSpec(name, attribute.attributeName(),
                map(schema, e -> new TableSpecs.SearchSchemaElement(e.attributeName(), e.searchSchemaElementType())),
                projection(projection), dimensions, distanceFunction);
    }

    private static TableSpecs.VectorIndexUpdate vectorIndexUpdate(VectorIndexUpdate u) {
        CreateVectorIndexAction c = u.create();
        return new TableSpecs.VectorIndexUpdate(c == null ? null : vectorIndex(c.indexName(), c.vectorAttribute(),
                c.searchSchema(), c.projection(), c.dimensions(), c.distanceFunction()),
                u.delete() == null ? null : u.delete().indexName());
    }

    /** RestoreTableFromBackup's overrides. */
    public static TableRestores.Overrides restoreOverrides(RestoreTableFromBackupInput r) {
        return restoreOverrides(r.billingModeOverride(), r.provisionedThroughputOverride(),
                r.globalSecondaryIndexOverride(), r.localSecondaryIndexOverride(), r.sseSpecificationOverride(),
                r.onDemandThroughputOverride());
    }

    /** RestoreTableToPointInTime's overrides, the same members as RestoreTableFromBackup's. */
    public static TableRestores.Overrides restoreOverrides(RestoreTableToPointInTimeInput r) {
        return restoreOverrides(r.billingModeOverride(), r.provisionedThroughputOverride(),
                r.globalSecondaryIndexOverride(), r.localSecondaryIndexOverride(), r.sseSpecificationOverride(),
                r.onDemandThroughputOverride());
    }

    private static TableRestores.Overrides restoreOverrides(String billingMode, ProvisionedThroughput throughput,
                                                            List<GlobalSecondaryIndex> globals,
                                                            List<LocalSecondaryIndex> locals, SSESpecification sse,
                                                            OnDemandThroughput onDemand) {
        return new TableRestores.Overrides(billingMode, throughput == null ? null : throughput(throughput),
                map(globals, TableRequests::globalIndex), map(locals, TableRequests::localIndex),
                sse == null ? null : sse(sse), onDemand == null ? null : onDemand(onDemand));
    }

    private static <T, R> List<R> map(List<T> values, Function<T, R> f) {
        if (values == null) return null;
        List<R> mapped = new ArrayList<>(values.size());
        for (T v : values) mapped.add(f.apply(v));
        return mapped;
    }

    private static List<TableDefinition.AttributeDefinition> attributeDefinitions(List<AttributeDefinition> definitions) {
        return map(definitions, d -> new TableDefinition.AttributeDefinition(d.attributeName(),
                AttributeValue.Type.valueOf(d.attributeType())));
    }

    private static List<TableSpecs.KeyElement> keySchema(List<KeySchemaElement> key) {
        return map(key, k -> new TableSpecs.KeyElement(k.attributeName(), k.keyType()));
    }

    private static TableSpecs.Throughput throughput(ProvisionedThroughput p) {
        return p == null ? null : new TableSpecs.Throughput(p.readCapacityUnits(), p.writeCapacityUnits());
    }

    private static TableSpecs.Projection projection(Projection p) {
        return new TableSpecs.Projection(p.projectionType(), p.nonKeyAttributes());
    }

    private static TableSpecs.IndexSpec localIndex(LocalSecondaryIndex i) {
        return new TableSpecs.IndexSpec(i.indexName(), keySchema(i.keySchema()), projection(i.projection()), null);
    }

    private static TableSpecs.IndexSpec globalIndex(GlobalSecondaryIndex i) {
        return new TableSpecs.IndexSpec(i.indexName(), keySchema(i.keySchema()), projection(i.projection()),
                throughput(i.provisionedThroughput()));
    }

    private static TableSpecs.GlobalIndexUpdate indexUpdate(GlobalSecondaryIndexUpdate u) {
        var create = u.create();
        return new TableSpecs.GlobalIndexUpdate(
                create == null ? null : new TableSpecs.IndexSpec(create.indexName(), keySchema(create.keySchema()),
                        projection(create.projection()), throughput(create.provisionedThroughput())),
                u.update() == null ? null
                        : new TableSpecs.IndexUpdate(u.update().indexName(), throughput(u.update().provisionedThroughput())),
                u.delete() == null ? null : u.delete().indexName());
    }

    private static TableSpecs.Stream stream(StreamSpecification s) {
        return s == null ? null : new TableSpecs.Stream(s.streamEnabled(), s.streamViewType());
    }

    private static TableSpecs.Sse sse(SSESpecification s) {
        return s == null ? null : new TableSpecs.Sse(s.enabled(), s.sseType(), s.kmsMasterKeyId());
    }

    private static TableSpecs.Tag tag(Tag t) {
        return new TableSpecs.Tag(t.key(), t.value());
    }

    /** DynamoDB takes an empty OnDemandThroughput as not given. */
    private static TableSpecs.OnDemand onDemand(OnDemandThroughput o) {
        if (o == null || (o.maxReadRequestUnits() == null && o.maxWriteRequestUnits() == null)) return null;
        return new TableSpecs.OnDemand(o.maxReadRequestUnits(), o.maxWriteRequestUnits());
    }

    /** DynamoDB takes an empty WarmThroughput as not given. */
    private static TableSpecs.Warm warm(WarmThroughput w) {
        if (w == null || (w.readUnitsPerSecond() == null && w.writeUnitsPerSecond() == null)) return null;
        return new TableSpecs.Warm(w.readUnitsPerSecond(), w.writeUnitsPerSecond());
    }
}

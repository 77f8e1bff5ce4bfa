package io.stator.engine.table;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.table.IndexDefinition.KeyAttribute;
import io.stator.engine.table.TableDefinition.AttributeDefinition;
import io.stator.engine.table.TableDefinition.BillingMode;
import io.stator.engine.table.TableDefinition.OnDemandThroughput;
import io.stator.engine.table.TableSpecs.IndexSpec;
import io.stator.engine.table.TableSpecs.KeyElement;
import io.stator.engine.table.TableSpecs.OnDemand;
import io.stator.engine.table.TableSpecs.Projection;
import io.stator.engine.table.TableSpecs.Sse;
import io.stator.engine.table.TableSpecs.Throughput;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The definition of a table restored from a backup (RestoreTableFromBackup): the backed-up
 * table's keys, indexes, billing mode, throughput and encryption, with the request's overrides;
 * not its tags, stream, Time to Live, deletion protection or resource policy, which DynamoDB does
 * not restore either (developer guide, "Restoring a DynamoDB table from a backup").
 *
 * <p>The result is checked as CreateTable checks its request, so a restore with overrides that
 * CreateTable would refuse (provisioned billing without throughput, say) gets CreateTable's
 * error: the definition is made into a {@link CreateTableSpec} and goes through
 * {@link TableCreation}.
 */
public final class TableRestores {

    /** The request's overrides; each null when not given. */
    public record Overrides(String billingMode, Throughput throughput, List<IndexSpec> globalIndexes,
                            List<IndexSpec> localIndexes, Sse sse, OnDemand onDemand) {}

    private TableRestores() {}

    /** The new table's definition, restoring {@code source} under {@code targetName}. */
    public static TableDefinition.Builder definition(TableDefinition source, String targetName, Overrides overrides,
                                                     TableDefinition.RestoreSummary summary, TableArns arns,
                                                     Clock clock) {
        String billingMode = overrides.billingMode() != null ? overrides.billingMode() : source.billingMode().name();
        boolean provisioned = BillingMode.PROVISIONED.name().equals(billingMode);
        Throughput throughput = overrides.throughput();
        if (throughput == null && provisioned && source.billingMode() == BillingMode.PROVISIONED) {
            throughput = new Throughput(source.throughput().readCapacityUnits(), source.throughput().writeCapacityUnits());
        }
        List<IndexSpec> globals = kept(source.globalIndexes(), overrides.globalIndexes(), provisioned, throughput,
                "GlobalSecondaryIndexOverride");
        List<IndexSpec> locals = kept(source.localIndexes(), overrides.localIndexes(), false, null,
                "LocalSecondaryIndexOverride");

        List<KeyElement> keySchema = new ArrayList<>();
        keySchema.add(new KeyElement(source.keySchema().partitionKey(), "HASH"));
        if (source.keySchema().hasSortKey()) keySchema.add(new KeyElement(source.keySchema().sortKey(), "RANGE"));
        // Only the attributes some kept key uses: CreateTable refuses a definition no key uses.
        Set<String> used = new LinkedHashSet<>();
        keySchema.forEach(k -> used.add(k.attributeName()));
        for (IndexSpec index : globals == null ? List.<IndexSpec>of() : globals) index.keySchema().forEach(k -> used.add(k.attributeName()));
        for (IndexSpec index : locals == null ? List.<IndexSpec>of() : locals) index.keySchema().forEach(k -> used.add(k.attributeName()));
        // Vector indexes are kept as they are (VectorIndexOverride is not served).
        List<TableSpecs.VectorIndexSpec> vectors = null;
        if (!source.vectorIndexes().isEmpty()) {
            vectors = new ArrayList<>();
            for (IndexDefinition index : source.vectorIndexes()) {
                TableSpecs.VectorIndexSpec v = vectorSpec(index);
                vectors.add(v);
                if (v.searchSchema() != null) v.searchSchema().forEach(e -> used.add(e.attributeName()));
            }
        }
        List<AttributeDefinition> attributes = new ArrayList<>();
        for (AttributeDefinition d : source.attributeDefinitions()) if (used.contains(d.name())) attributes.add(d);

        Sse sse = overrides.sse();
        if (sse == null && source.sse() != null) sse = new Sse(true, "KMS", source.sse().kmsMasterKeyArn());
        OnDemand onDemand = overrides.onDemand();
        OnDemandThroughput sourceOnDemand = source.onDemandThroughput();
        if (onDemand == null && !provisioned && sourceOnDemand != null) {
            onDemand = new OnDemand(maximum(sourceOnDemand.maxReadRequestUnits()),
                    maximum(sourceOnDemand.maxWriteRequestUnits()));
        }
        CreateTableSpec spec = new CreateTableSpec(targetName, attributes, keySchema, billingMode, throughput, locals,
                globals, null, sse, source.tableClass().name(), false, null, onDemand, null, null, vectors);
        TableDefinition.Builder restored = TableCreation.definition(spec, arns, clock);
        restored.restore = summary;
        return restored;
    }

    private static Long maximum(long units) {
        return units == -1 ? null : units;
    }

    /**
     * The indexes the restored table keeps: all of the source's, or those the override names
     * (each must be one of the source's: DynamoDB restores the indexes the backup has, "you can
     * choose to exclude some or all of the indexes", never new ones), as index specs. A global
     * index of a provisioned table takes the override's throughput, else its own, else (the source
     * was on-demand) the table's. Null for none.
     */
    private static List<IndexSpec> kept(List<IndexDefinition> indexes, List<IndexSpec> override, boolean provisioned,
                                        Throughput tableThroughput, String member) {
        List<IndexSpec> kept = new ArrayList<>();
        if (override == null) {
            for (IndexDefinition index : indexes) kept.add(spec(index, null, provisioned, tableThroughput));
        } else {
            for (IndexSpec wanted : override) {
                IndexDefinition index = indexes.stream().filter(i -> i.name().equals(wanted.indexName())).findFirst()
                        .orElseThrow(() -> DynamoDbException.validation(member + " names index " + wanted.indexName()
                                + ", which the backup does not have: a restore keeps or drops the backup's indexes"));
                kept.add(spec(index, wanted.throughput(), provisioned, tableThroughput));
            }
        }
        return kept.isEmpty() ? null : kept;
    }

    /** A vector index as CreateTable would give it. */
    static TableSpecs.VectorIndexSpec vectorSpec(IndexDefinition index) {
        List<TableSpecs.SearchSchemaElement> schema = new ArrayList<>();
        for (KeyAttribute k : index.partitionKey()) schema.add(new TableSpecs.SearchSchemaElement(k.name(), "HASH"));
        for (KeyAttribute k : index.vector().inlineFilters()) {
            schema.add(new TableSpecs.SearchSchemaElement(k.name(), "INLINE_FILTER"));
        }
        Projection projection = new Projection(index.projectionType().name(),
                index.projectionType() == IndexDefinition.ProjectionType.INCLUDE ? index.nonKeyAttributes() : null);
        return new TableSpecs.VectorIndexSpec(index.name(), index.vector().attribute(), schema.isEmpty() ? null : schema,
                projection, (long) index.vector().dimensions(), index.vector().distanceFunction().name());
    }

    private static IndexSpec spec(IndexDefinition index, Throughput override, boolean provisioned,
                                  Throughput tableThroughput) {
        List<KeyElement> keys = new ArrayList<>();
        for (KeyAttribute k : index.partitionKey()) keys.add(new KeyElement(k.name(), "HASH"));
        for (KeyAttribute k : index.sortKey()) keys.add(new KeyElement(k.name(), "RANGE"));
        Projection projection = new Projection(index.projectionType().name(),
                index.projectionType() == IndexDefinition.ProjectionType.INCLUDE ? index.nonKeyAttributes() : null);
        Throughput throughput = null;
        if (index.global() && provisioned) {
            throughput = override;
            if (throughput == null && index.throughput() != null && index.throughput().readCapacityUnits() > 0) {
                throughput = new Throughput(index.throughput().readCapacityUnits(), index.throughput().writeCapacityUnits());
            }
            if (throughput == null) throughput = tableThroughput;
        }
        return new IndexSpec(index.name(), keys, projection, throughput);
    }
}

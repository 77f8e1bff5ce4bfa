package io.stator.engine.table;

import java.util.List;

/**
 * The parts of a table's definition as CreateTable and UpdateTable are given them, before
 * DynamoDB's checks: what a front end hands the engine. Strings stay strings where DynamoDB
 * reports a bad or missing value itself ("Unknown ProjectionType: null", "The first
 * KeySchemaElement is not a HASH key type"). Members a request left out are null.
 */
public final class TableSpecs {

    private TableSpecs() {}

    /** One KeySchemaElement: an attribute and its role, HASH or RANGE. */
    public record KeyElement(String attributeName, String keyType) {}

    /** @param projectionType ALL, KEYS_ONLY or INCLUDE; null when not given */
    public record Projection(String projectionType, List<String> nonKeyAttributes) {}

    public record Throughput(long readCapacityUnits, long writeCapacityUnits) {}

    /** A local or global secondary index; a local one has no throughput. */
    public record IndexSpec(String indexName, List<KeyElement> keySchema, Projection projection, Throughput throughput) {}

    public record Stream(boolean enabled, String viewType) {}

    public record Sse(Boolean enabled, String sseType, String kmsMasterKeyId) {}

    /** Null members are not given (an empty OnDemandThroughput is taken as not given at all). */
    public record OnDemand(Long maxReadRequestUnits, Long maxWriteRequestUnits) {}

    /** Null members are not given (an empty WarmThroughput is taken as not given at all). */
    public record Warm(Long readUnitsPerSecond, Long writeUnitsPerSecond) {}

    /** A tag; DynamoDB reports a missing key or value itself. */
    public record Tag(String key, String value) {}

    /**
     * One entry of UpdateTable's GlobalSecondaryIndexUpdates: a Create, an Update (of a global
     * index's throughput) or a Delete; DynamoDB refuses an entry with none or several.
     */
    public record GlobalIndexUpdate(IndexSpec create, IndexUpdate update, String delete) {

        /** The index the entry names. */
        public String indexName() {
            return create != null ? create.indexName() : update != null ? update.indexName() : delete;
        }
    }

    /** @param throughput null when not given */
    public record IndexUpdate(String indexName, Throughput throughput) {}

    /**
     * A vector index as CreateTable or UpdateTable's Create gives it.
     *
     * @param dimensions       null when not given
     * @param distanceFunction COSINE, EUCLIDEAN or DOT_PRODUCT (the model's enum is checked before)
     * @param searchSchema     null when not given
     */
    public record VectorIndexSpec(String indexName, String vectorAttribute, List<SearchSchemaElement> searchSchema,
                                  Projection projection, Long dimensions, String distanceFunction) {}

    /** @param type HASH or INLINE_FILTER */
    public record SearchSchemaElement(String attributeName, String type) {}

    /** One entry of UpdateTable's VectorIndexUpdates: a Create or a Delete (by name). */
    public record VectorIndexUpdate(VectorIndexSpec create, String delete) {}
}

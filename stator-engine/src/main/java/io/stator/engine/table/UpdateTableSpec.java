package io.stator.engine.table;

import io.stator.engine.table.TableDefinition.AttributeDefinition;
import io.stator.engine.table.TableSpecs.GlobalIndexUpdate;
import io.stator.engine.table.TableSpecs.OnDemand;
import io.stator.engine.table.TableSpecs.Sse;
import io.stator.engine.table.TableSpecs.Stream;
import io.stator.engine.table.TableSpecs.Throughput;
import io.stator.engine.table.TableSpecs.VectorIndexUpdate;
import io.stator.engine.table.TableSpecs.Warm;
import java.util.List;

/**
 * UpdateTable as a front end gives it; members not given are null ({@link TableSpecs}). An
 * empty GlobalSecondaryIndexUpdates, OnDemandThroughput or WarmThroughput is taken as not given
 * (DynamoDB drops them; alone, it fails them with an internal error).
 *
 * @param tableName            a name or a table ARN
 * @param attributeDefinitions the definitions of a new global index's key attributes
 */
public record UpdateTableSpec(String tableName, List<AttributeDefinition> attributeDefinitions, String billingMode,
                              Throughput throughput, Stream stream, List<GlobalIndexUpdate> globalIndexUpdates,
                              Sse sse, String tableClass, Boolean deletionProtectionEnabled, OnDemand onDemand,
                              Warm warm, List<VectorIndexUpdate> vectorIndexUpdates) {}

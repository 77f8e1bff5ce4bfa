package io.stator.engine.table;

import io.stator.engine.table.TableDefinition.AttributeDefinition;
import io.stator.engine.table.TableSpecs.IndexSpec;
import io.stator.engine.table.TableSpecs.KeyElement;
import io.stator.engine.table.TableSpecs.OnDemand;
import io.stator.engine.table.TableSpecs.Sse;
import io.stator.engine.table.TableSpecs.Stream;
import io.stator.engine.table.TableSpecs.Tag;
import io.stator.engine.table.TableSpecs.Throughput;
import io.stator.engine.table.TableSpecs.VectorIndexSpec;
import io.stator.engine.table.TableSpecs.Warm;
import java.util.List;

/**
 * CreateTable as a front end gives it; members not given are null ({@link TableSpecs}).
 *
 * @param tableName   a name or a table ARN
 * @param billingMode PROVISIONED or PAY_PER_REQUEST; null for DynamoDB's default (PROVISIONED)
 * @param resourcePolicy the table's resource-based policy, checked and in its canonical form, or null
 */
public record CreateTableSpec(String tableName, List<AttributeDefinition> attributeDefinitions,
                              List<KeyElement> keySchema, String billingMode, Throughput throughput,
                              List<IndexSpec> localIndexes, List<IndexSpec> globalIndexes, Stream stream, Sse sse,
                              String tableClass, Boolean deletionProtectionEnabled, List<Tag> tags, OnDemand onDemand,
                              Warm warm, String resourcePolicy, List<VectorIndexSpec> vectorIndexes) {}

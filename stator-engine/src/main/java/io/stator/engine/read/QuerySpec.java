package io.stator.engine.read;

import io.stator.core.expression.Condition;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import io.stator.engine.read.KeyConditions.KeyCondition;
import java.util.List;
import java.util.Map;

/**
 * A Query as a front end gives it to the engine, its expressions parsed and resolved.
 *
 * @param indexName         null for the table itself
 * @param keyConditions     by key attribute, from a KeyConditionExpression or KeyConditions
 * @param filter            null for none
 * @param legacyFilter      the filter came as QueryFilter (DynamoDB names it so in its errors)
 * @param projection        null for whole items
 * @param select            null when not given
 * @param exclusiveStartKey null to start at the beginning
 * @param limit             Integer.MAX_VALUE for no limit but the page size
 */
public record QuerySpec(String indexName, Map<String, KeyCondition> keyConditions, Condition filter,
                        boolean legacyFilter, List<Path> projection, Select select,
                        Map<String, AttributeValue> exclusiveStartKey, int limit, boolean forward,
                        boolean consistentRead) {}

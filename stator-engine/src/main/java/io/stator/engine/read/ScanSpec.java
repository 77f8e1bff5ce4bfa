package io.stator.engine.read;

import io.stator.core.expression.Condition;
import io.stator.core.expression.Path;
import io.stator.core.model.AttributeValue;
import java.util.List;
import java.util.Map;

/**
 * A Scan (or one segment of a parallel scan) as a front end gives it to the engine, its
 * expressions parsed and resolved.
 *
 * @param indexName         null for the table itself
 * @param filter            null for none
 * @param projection        null for whole items
 * @param select            null when not given
 * @param exclusiveStartKey null to start at the beginning of the segment
 * @param segment           0 and 1 for a whole scan
 * @param limit             Integer.MAX_VALUE for no limit but the page size
 */
public record ScanSpec(String indexName, Condition filter, List<Path> projection, Select select,
                       Map<String, AttributeValue> exclusiveStartKey, int segment, int totalSegments, int limit,
                       boolean consistentRead) {}

package io.stator.engine.advisor;

import io.stator.core.model.AttributeValue;
import io.stator.engine.capacity.ThroughputExceededException;
import java.util.List;
import java.util.Map;

/**
 * One throttled request (or batch item): when, which pattern, which key, which limits of which
 * resources refused it (the 16 reasons), and the error DynamoDB names for it.
 *
 * @param key the item's key (a Query's partition key; null for a Scan)
 */
public record ThrottleEvent(long timeMillis, Signature signature, Map<String, AttributeValue> key,
                            List<ThroughputExceededException.Reason> reasons, String errorType) {}

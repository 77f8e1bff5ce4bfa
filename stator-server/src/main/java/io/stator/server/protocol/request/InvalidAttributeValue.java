package io.stator.server.protocol.request;

import io.stator.core.error.DynamoDbException;

/**
 * Stands in a request for an attribute value that is well-typed JSON but not a valid DynamoDB
 * value (an empty set, a malformed number, two data types...). DynamoDB reports such values only
 * after the request's constraint checks, at the point where the action looks at them, so the
 * reader keeps the error here and {@link Unvalidated} throws it when the value is asked for.
 */
public record InvalidAttributeValue(DynamoDbException error) {}

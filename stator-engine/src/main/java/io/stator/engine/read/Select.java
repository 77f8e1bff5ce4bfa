package io.stator.engine.read;

/** What a Query or Scan returns of each item (DynamoDB's Select). */
public enum Select {
    ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES, SPECIFIC_ATTRIBUTES, COUNT
}

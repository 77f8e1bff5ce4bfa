package io.stator.engine.read;

/**
 * DynamoDB's ComparisonOperator, as a key condition carries it: the seven a key condition may
 * use, from a KeyConditionExpression or the legacy KeyConditions, and the others a legacy
 * KeyConditions may name, which {@link KeyConditions#resolve} refuses with DynamoDB's text.
 */
public enum ComparisonOperator {
    EQ, NE, IN, LE, LT, GE, GT, BETWEEN, NOT_NULL, NULL, CONTAINS, NOT_CONTAINS, BEGINS_WITH
}

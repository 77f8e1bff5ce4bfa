package io.stator.server.api.checks;

import static io.stator.server.api.checks.ExpressionParameters.member;

import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ExpressionContext;
import io.stator.core.expression.ExpressionKind;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.ItemLimits;
import io.stator.engine.item.LimitedItem;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.ItemUpdate;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.ReturnValues;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.request.AttributeValueUpdate;
import io.stator.server.protocol.request.ConditionCheck;
import io.stator.server.protocol.request.ConditionalOperator;
import io.stator.server.protocol.request.Delete;
import io.stator.server.protocol.request.DeleteItemInput;
import io.stator.server.protocol.request.ExpectedAttributeValue;
import io.stator.server.protocol.request.Put;
import io.stator.server.protocol.request.PutItemInput;
import io.stator.server.protocol.request.ReturnConsumedCapacity;
import io.stator.server.protocol.request.ReturnValue;
import io.stator.server.protocol.request.ReturnValuesOnConditionCheckFailure;
import io.stator.server.protocol.request.Unvalidated;
import io.stator.server.protocol.request.Update;
import io.stator.server.protocol.request.UpdateItemInput;
import java.util.List;
import java.util.Map;

/**
 * The item writes of requests, checked in DynamoDB's order and made into the engine's
 * {@link ItemWrite}s: PutItem's, UpdateItem's and DeleteItem's, and the same writes inside
 * TransactWriteItems (whose Put, Update, Delete and ConditionCheck carry fewer members: those
 * absent are null). With --policies, each write's permission is checked after the request's own
 * checks and before its table's lookup (see {@link Permissions}).
 */
public final class WriteRequests {

    private WriteRequests() {}

    /**
     * Who writes, for the permission check each write makes before its table's lookup; null
     * when nothing is checked.
     *
     * @param enclosingOperation TransactWriteItems for a transaction's actions, else null
     * @param returnConsumedCapacity the request's ReturnConsumedCapacity
     */
    public record Access(Authorizer authorizer, String enclosingOperation,
            ReturnConsumedCapacity returnConsumedCapacity) {

        /** The write's access, or null when nothing is checked (no --policies): then nothing is built. */
        public static Access of(Authorizer authorizer, String enclosingOperation,
            ReturnConsumedCapacity returnConsumedCapacity) {
            return authorizer.enforced() ? new Access(authorizer, enclosingOperation, returnConsumedCapacity) : null;
        }

        /** The write's ReturnValues key: a transaction's actions have ReturnValuesOnConditionCheckFailure. */
        public String returnValues(ReturnValue returnValues, ReturnValuesOnConditionCheckFailure onFailure) {
            if (enclosingOperation != null) return onFailure == null ? null : onFailure.wireName();
            return returnValues == null ? null : returnValues.wireName();
        }

        public void check(Engine engine, String action, String tableName, Permissions.Keys keys) {
            Permissions.item(authorizer, engine, action, tableName, null,
                    keys.returnConsumedCapacity(returnConsumedCapacity).enclosingOperation(enclosingOperation));
        }
    }

    /** The members of a write's condition, legacy or expression, whatever request carries them. */
    private record ConditionMembers(Map<String, ExpectedAttributeValue> expected,
                                    ConditionalOperator conditionalOperator, String conditionExpression,
                                    Map<String, String> expressionAttributeNames,
                                    Unvalidated<Map<String, AttributeValue>> expressionAttributeValues) {

        /** A transaction's action: a ConditionExpression only, no legacy members. */
        public static ConditionMembers expression(String conditionExpression, Map<String, String> expressionAttributeNames,
                                           Unvalidated<Map<String, AttributeValue>> expressionAttributeValues) {
            return new ConditionMembers(null, null, conditionExpression, expressionAttributeNames,
                    expressionAttributeValues);
        }
    }

    /**
     * What a put says, whichever request carries it.
     *
     * @param returnValues null for a transaction's Put, which has none
     */
    private record PutMembers(String tableName, Unvalidated<Map<String, AttributeValue>> item,
                              ConditionMembers condition, ReturnValue returnValues,
                              ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure, boolean inTransaction) {}

    /** PutItem's put (see {@link #put(Engine, PutMembers, Access)}). */
    public static ItemWrite put(Engine engine, PutItemInput r, Access access) {
        return put(engine, new PutMembers(r.tableName(), r.item(), new ConditionMembers(r.expected(),
                r.conditionalOperator(), r.conditionExpression(), r.expressionAttributeNames(),
                r.expressionAttributeValues()), r.returnValues(), r.returnValuesOnConditionCheckFailure(), false),
                access);
    }

    /** A Put of TransactWriteItems (see {@link #put(Engine, PutMembers, Access)}). */
    public static ItemWrite put(Engine engine, Put p, Access access) {
        return put(engine, new PutMembers(p.tableName(), p.item(), ConditionMembers.expression(p.conditionExpression(),
                p.expressionAttributeNames(), p.expressionAttributeValues()), null,
                p.returnValuesOnConditionCheckFailure(), true), access);
    }

    /** DeleteItem's delete (its checks: the private {@code delete} below). */
    public static ItemWrite delete(Engine engine, DeleteItemInput r, Access access) {
        return delete(engine, r.tableName(), r.key(), new ConditionMembers(r.expected(), r.conditionalOperator(),
                r.conditionExpression(), r.expressionAttributeNames(), r.expressionAttributeValues()),
                r.returnValues(), r.returnValuesOnConditionCheckFailure(), access);
    }

    /** A Delete of TransactWriteItems. */
    public static ItemWrite delete(Engine engine, Delete d, Access access) {
        return delete(engine, d.tableName(), d.key(), ConditionMembers.expression(d.conditionExpression(),
                d.expressionAttributeNames(), d.expressionAttributeValues()), null,
                d.returnValuesOnConditionCheckFailure(), access);
    }

    /** UpdateItem's update (its checks: the private {@code update} below). */
    public static ItemWrite update(Engine engine, UpdateItemInput r, Access access) {
        return update(engine, r.tableName(), r.key(), r.attributeUpdates(), r.updateExpression(),
                new ConditionMembers(r.expected(), r.conditionalOperator(), r.conditionExpression(),
                        r.expressionAttributeNames(), r.expressionAttributeValues()),
                r.returnValues(), r.returnValuesOnConditionCheckFailure(), access);
    }

    /** An Update of TransactWriteItems: an UpdateExpression, no ReturnValues. */
    public static ItemWrite update(Engine engine, Update u, Access access) {
        return update(engine, u.tableName(), u.key(), null, u.updateExpression(),
                ConditionMembers.expression(u.conditionExpression(), u.expressionAttributeNames(),
                        u.expressionAttributeValues()),
                null, u.returnValuesOnConditionCheckFailure(), access);
    }

    /**
     * A put, checked in DynamoDB's order: the expression parameters, the item's values, its
     * nesting, ReturnValues, the item's size, the condition, then the table, then the key
     * attributes against the table's key schema. An over-size item is refused even when the
     * table does not exist.
     */
    private static ItemWrite put(Engine engine, PutMembers put, Access access) {
        ConditionMembers c = put.condition();
        checkCombination(c);
        Map<String, AttributeValue> values = put.item().validated();
        ItemLimits.Nested nested = ItemLimits.checkNesting(values);
        ReturnValues returned = oldItemOrNothing(put.returnValues());
        LimitedItem item = nested.checkSize();
        Condition condition = condition(c);
        if (access != null) {
            access.check(engine, "PutItem", put.tableName(), new Permissions.Keys()
                    .leadingKeyOf(Permissions.find(engine, put.tableName()), values).attributes(values.keySet())
                    .condition(condition).returnValues(access.returnValues(put.returnValues(),
                            put.returnValuesOnConditionCheckFailure())));
        }
        TableDefinition table = engine.tables().require(put.tableName());
        return ItemWrite.put(table, item, condition, returned,
                returnsOldItemOnFailure(put.returnValuesOnConditionCheckFailure()), put.inTransaction());
    }

    /**
     * A delete, checked in DynamoDB's order: the expression parameters, the key's values,
     * ReturnValues, the condition, the table, then the key against the table's key schema.
     */
    private static ItemWrite delete(Engine engine, String tableName, Unvalidated<Map<String, AttributeValue>> key,
                                    ConditionMembers c, ReturnValue returnValues,
                                    ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure, Access access) {
        checkCombination(c);
        Map<String, AttributeValue> values = key.validated();
        ReturnValues returned = oldItemOrNothing(returnValues);
        Condition condition = condition(c);
        if (access != null) {
            access.check(engine, "DeleteItem", tableName, new Permissions.Keys()
                    .leadingKeyOf(Permissions.find(engine, tableName), values).attributes(values.keySet())
                    .condition(condition).returnValues(access.returnValues(returnValues, returnValuesOnConditionCheckFailure)));
        }
        TableDefinition table = engine.tables().require(tableName);
        return ItemWrite.delete(table, values, condition, returned,
                returnsOldItemOnFailure(returnValuesOnConditionCheckFailure));
    }

    /**
     * An update (an upsert), checked in DynamoDB's order: the expression parameters, the key's
     * values, AttributeUpdates, Expected, the expressions, the table, then the key and the
     * update's targets against the table's key schema.
     *
     * @param returnValues null for NONE (a transaction's Update has none)
     */
    private static ItemWrite update(Engine engine, String tableName, Unvalidated<Map<String, AttributeValue>> key,
                                    Map<String, AttributeValueUpdate> attributeUpdates, String updateExpression,
                                    ConditionMembers c, ReturnValue returnValues,
                                    ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure, Access access) {
        ExpressionParameters.checkCombination(
                List.of(member("UpdateExpression", updateExpression), member("ConditionExpression", c.conditionExpression())),
                List.of(member("AttributeUpdates", attributeUpdates), member("Expected", c.expected())),
                c.expressionAttributeNames(), c.expressionAttributeValues());
        Map<String, AttributeValue> keyValues = key.validated();
        ItemUpdate update = LegacyUpdates.read(attributeUpdates);
        Condition condition = LegacyConditions.expected(c.expected(), c.conditionalOperator());
        ExpressionContext expressions = ExpressionParameters.context(c.expressionAttributeNames(),
                c.expressionAttributeValues());
        if (updateExpression != null) update = new ItemUpdate.Expression(expressions.update(updateExpression));
        if (c.conditionExpression() != null) {
            condition = expressions.condition(ExpressionKind.CONDITION, c.conditionExpression());
        }
        expressions.checkAllUsed();
        boolean returnOldOnFailure = returnsOldItemOnFailure(returnValuesOnConditionCheckFailure);
        if (access != null) {
            access.check(engine, "UpdateItem", tableName, new Permissions.Keys()
                    .leadingKeyOf(Permissions.find(engine, tableName), keyValues).attributes(keyValues.keySet())
                    .update(update).condition(condition)
                    .returnValues(access.returnValues(returnValues, returnValuesOnConditionCheckFailure)));
        }
        TableDefinition table = engine.tables().require(tableName);
        return ItemWrite.update(table, keyValues, condition,
                returned(returnValues), returnOldOnFailure,
                update == null ? ItemUpdate.NONE : update);
    }

    /** A transaction's ConditionCheck: the key's values, the condition, the table, the key against its schema. */
    public static ItemWrite conditionCheck(Engine engine, ConditionCheck check, Access access) {
        String tableName = check.tableName();
        Unvalidated<Map<String, AttributeValue>> key = check.key();
        ConditionMembers c = ConditionMembers.expression(check.conditionExpression(), check.expressionAttributeNames(),
                check.expressionAttributeValues());
        ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure = check.returnValuesOnConditionCheckFailure();
        Map<String, AttributeValue> values = key.validated();
        ExpressionContext expressions = ExpressionParameters.context(c.expressionAttributeNames(),
                c.expressionAttributeValues());
        Condition condition = expressions.condition(ExpressionKind.CONDITION, c.conditionExpression());
        expressions.checkAllUsed();
        if (access != null) {
            access.check(engine, "ConditionCheckItem", tableName, new Permissions.Keys()
                    .leadingKeyOf(Permissions.find(engine, tableName), values).attributes(values.keySet())
                    .condition(condition).returnValues(returnValuesOnConditionCheckFailure));
        }
        TableDefinition table = engine.tables().require(tableName);
        return ItemWrite.conditionCheck(table, values, condition,
                returnsOldItemOnFailure(returnValuesOnConditionCheckFailure));
    }

    private static void checkCombination(ConditionMembers c) {
        ExpressionParameters.checkCombination(List.of(member("ConditionExpression", c.conditionExpression())),
                List.of(member("Expected", c.expected())), c.expressionAttributeNames(), c.expressionAttributeValues());
    }

    /**
     * The condition of a put or a delete: its legacy Expected, or its ConditionExpression,
     * checked (with the placeholders) in DynamoDB's order.
     */
    private static Condition condition(ConditionMembers c) {
        Condition condition = LegacyConditions.expected(c.expected(), c.conditionalOperator());
        ExpressionContext expressions = ExpressionParameters.context(c.expressionAttributeNames(),
                c.expressionAttributeValues());
        if (c.conditionExpression() != null) {
            condition = expressions.condition(ExpressionKind.CONDITION, c.conditionExpression());
        }
        expressions.checkAllUsed();
        return condition;
    }

    private static boolean returnsOldItemOnFailure(ReturnValuesOnConditionCheckFailure returnValuesOnConditionCheckFailure) {
        return returnValuesOnConditionCheckFailure == ReturnValuesOnConditionCheckFailure.ALL_OLD;
    }

    /** PutItem and DeleteItem return only the old item, or nothing. */
    private static ReturnValues oldItemOrNothing(ReturnValue returnValues) {
        if (returnValues == null || returnValues == ReturnValue.NONE) return ReturnValues.NONE;
        if (returnValues == ReturnValue.ALL_OLD) return ReturnValues.ALL_OLD;
        throw DynamoDbException.validation("ReturnValues can only be ALL_OLD or NONE");
    }

    /** The engine's ReturnValues for the request's (NONE when absent). */
    private static ReturnValues returned(ReturnValue returnValues) {
        if (returnValues == null) return ReturnValues.NONE;
        return switch (returnValues) {
            case NONE -> ReturnValues.NONE;
            case ALL_OLD -> ReturnValues.ALL_OLD;
            case UPDATED_OLD -> ReturnValues.UPDATED_OLD;
            case ALL_NEW -> ReturnValues.ALL_NEW;
            case UPDATED_NEW -> ReturnValues.UPDATED_NEW;
        };
    }
}

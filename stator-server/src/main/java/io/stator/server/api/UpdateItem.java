package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ExpressionContext;
import io.stator.core.expression.ExpressionKind;
import io.stator.core.expression.Path;
import io.stator.core.expression.Projector;
import io.stator.core.expression.UpdateAction;
import io.stator.core.expression.UpdateApplier;
import io.stator.core.model.AttributeValue;
import io.stator.engine.Engine;
import io.stator.engine.item.ItemOperations.WriteResult;
import io.stator.engine.item.ItemWrite;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.table.Catalog.NotFoundMessage;
import io.stator.engine.table.TableDefinition;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * UpdateItem: an UpdateExpression (or legacy AttributeUpdates) applied to the item, created when
 * absent (an upsert), under an optional condition; all of it atomic with respect to every other
 * write of the item, and whole or not at all.
 */
final class UpdateItem implements Action {

    private static final List<String> EXPRESSIONS = List.of("UpdateExpression", "ConditionExpression");
    private static final List<String> LEGACY = List.of("AttributeUpdates", "Expected");

    private final Engine engine;

    UpdateItem(Engine engine) {
        this.engine = engine;
    }

    /** A checked update, ready to run, and the paths it updates (for UPDATED_OLD and UPDATED_NEW). */
    record Prepared(ItemWrite write, List<Path> targets) {}

    /**
     * Checks an update (UpdateItem's request, or an Update of TransactWriteItems) in DynamoDB's
     * order and returns it ready to run.
     */
    static Prepared prepare(Engine engine, Struct request) {
        ExpressionParameters.checkCombination(request, EXPRESSIONS, LEGACY);
        Map<String, AttributeValue> key = request.attributeMap("Key");
        Map<String, Struct> attributeUpdates = LegacyUpdates.read(request);
        Condition condition = LegacyConditions.expected(request);
        ExpressionContext expressions = ExpressionParameters.context(request);
        List<UpdateAction> actions = request.has("UpdateExpression")
                ? expressions.update(request.string("UpdateExpression")) : null;
        if (request.has("ConditionExpression")) {
            condition = expressions.condition(ExpressionKind.CONDITION, request.string("ConditionExpression"));
        }
        expressions.checkAllUsed();
        boolean returnOldOnFailure = ItemRules.returnsOldItemOnFailure(request);

        TableDefinition table = engine.catalog().require(request.string("TableName"), NotFoundMessage.PLAIN);
        // The Key is checked against the schema before the update's targets are (dynalite's order).
        PrimaryKeys.checkKey(table.keySchema(), key);
        List<Path> targets = new ArrayList<>();
        if (actions != null) {
            for (UpdateAction a : actions) targets.add(a.path());
        } else if (attributeUpdates != null) {
            for (String name : attributeUpdates.keySet()) targets.add(Path.of(name));
        }
        List<String> topLevel = new ArrayList<>(targets.size());
        for (Path p : targets) topLevel.add(p.topLevelName());
        KeyPaths.checkNotUpdatingKey(table.keySchema(), topLevel);
        KeyPaths.checkNoNestedKeyPaths(table.keySchema(), targets);

        boolean removesOnly = actions != null && !actions.isEmpty()
                && actions.stream().allMatch(a -> a instanceof UpdateAction.Remove);
        ItemWrite write = ItemWrite.update(table, key, condition, returnOldOnFailure, old -> {
                    // REMOVE alone on a missing item creates nothing and, though its paths lead
                    // nowhere, is no error (DynamoDB's behaviour, recorded by Scylla's tests).
                    if (old == null && removesOnly) return null;
                    Map<String, AttributeValue> base = old != null ? old : key;
                    Map<String, AttributeValue> updated = actions != null ? UpdateApplier.apply(actions, base)
                            : attributeUpdates != null ? LegacyUpdates.apply(attributeUpdates, base) : base;
                    ItemRules.checkUpdatedItemSize(updated);
                    return updated;
                });
        return new Prepared(write, targets);
    }

    @Override
    public void execute(Struct request, ResponseBody response) throws IOException {
        Prepared prepared = prepare(engine, request);
        String returnValues = request.string("ReturnValues", "NONE");
        TableDefinition table = prepared.write().table();
        List<Path> targets = prepared.targets();
        WriteResult result = engine.items().write(prepared.write());

        JsonGenerator g = response.json();
        Map<String, AttributeValue> returned = switch (returnValues) {
            case "ALL_OLD" -> result.oldItem();
            case "ALL_NEW" -> result.newItem();
            case "UPDATED_OLD" -> result.oldItem() == null ? null : Projector.project(result.oldItem(), targets);
            case "UPDATED_NEW" -> result.newItem() == null ? null : Projector.project(result.newItem(), targets);
            default -> null;
        };
        if (returned != null && !returned.isEmpty()) {
            g.writeFieldName("Attributes");
            AttributeValueJson.writeItem(g, returned);
        }
        ItemRules.writeConsumedCapacity(g, request, result.consumed());
        ItemRules.writeItemCollectionMetrics(g, request, table, result);
    }
}

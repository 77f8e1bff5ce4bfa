package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ConditionEvaluator;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import io.stator.core.item.ItemCodec;
import io.stator.core.model.AttributeValue;
import io.stator.core.partiql.PartiqlParser;
import io.stator.core.partiql.Statement;
import io.stator.engine.Engine;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.read.KeyConditions;
import io.stator.engine.read.Page;
import io.stator.engine.read.QuerySpec;
import io.stator.engine.read.ScanSpec;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.KeySchema;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.ConditionalCheckFailedException;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.WriteResult;
import io.stator.server.access.Authorizer;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ExecuteStatementInput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * ExecuteStatement: one PartiQL statement, run as the engine operation the JSON API would run
 * for it. A SELECT whose WHERE fixes the partition key with {@code =} is a Query (a sort key
 * condition among the AND terms becomes its key condition, the other terms its filter); with
 * {@code IN} (or equalities joined by OR), a Query of each partition in turn; anything else is a
 * Scan with the WHERE clause as its filter. INSERT is a put on condition that
 * no item has the key (DuplicateItemException otherwise); UPDATE and DELETE take the full primary
 * key from equalities in WHERE, the other terms becoming the write's condition; UPDATE also
 * requires the item to exist (ConditionalCheckFailedException otherwise), as DynamoDB's UPDATE
 * never creates an item.
 *
 * <p>NextToken is the page's LastEvaluatedKey in the engine's item encoding, in base64: opaque to
 * clients, as DynamoDB's is, but not tied to the statement (DynamoDB's is; "NextToken does not
 * match request" is not reported).
 */
final class ExecuteStatement implements Action<ExecuteStatementInput> {

    private final Engine engine;

    ExecuteStatement(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(ExecuteStatementInput request, Authorizer access, ResponseBody response) throws IOException {
        List<AttributeValue> parameters = request.parameters() == null ? null : request.parameters().validated();
        Statement statement = PartiqlParser.parse(request.statement(), parameters);
        switch (statement) {
            case Statement.Select s -> select(s, request, access, response);
            case Statement.Insert s -> write(PartiqlWrites.insert(engine, s, access, request.returnConsumedCapacity()),
                    true, s.tableName(), request, response);
            case Statement.Update s -> write(PartiqlWrites.update(engine, s, access, request.returnConsumedCapacity(),
                    returnsOldItemOnFailure(request)), false, s.tableName(), request, response);
            case Statement.Delete s -> write(PartiqlWrites.delete(engine, s, access, request.returnConsumedCapacity(),
                    returnsOldItemOnFailure(request)), false, s.tableName(), request, response);
        }
    }

    // ---- SELECT -------------------------------------------------------------------------------

    private void select(Statement.Select s, ExecuteStatementInput request, Authorizer access, ResponseBody response)
            throws IOException {
        if (access.enforced()) {
            Permissions.item(access, engine, "PartiQLSelect", s.tableName(), s.indexName(), new Permissions.Keys()
                    .returnConsumedCapacity(request.returnConsumedCapacity()));
        }
        TableDefinition table = engine.tables().require(s.tableName());
        List<String> partitionKey;
        List<String> sortKey;
        if (s.indexName() == null) {
            KeySchema keys = table.keySchema();
            partitionKey = List.of(keys.partitionKey());
            sortKey = keys.hasSortKey() ? List.of(keys.sortKey()) : List.of();
        } else {
            IndexDefinition index = table.index(s.indexName());
            if (index == null) {
                throw DynamoDbException.resourceNotFound("Requested resource not found");
            }
            partitionKey = index.partitionKey().stream().map(IndexDefinition.KeyAttribute::name).toList();
            sortKey = index.sortKey().stream().map(IndexDefinition.KeyAttribute::name).toList();
        }
        List<String> keyAttributes = new ArrayList<>(partitionKey);
        keyAttributes.addAll(sortKey);
        if (s.orderBy() != null && !PartiqlPlans.isKeyPath(s.orderBy(), keyAttributes)) {
            // DynamoDB Local's wording (ValidationExceptionMessages.INVALID_ATTRIBUTES_IN_ORDER_BY).
            throw DynamoDbException.validation("Variable reference " + s.orderBy().topLevelName()
                    + " in ORDER BY clause must be part of the primary key");
        }
        Map<String, AttributeValue> startKey = nextToken(request.nextToken());
        int limit = ReadRequests.limit(request.limit());
        boolean consistent = Boolean.TRUE.equals(request.consistentRead());
        Page page;
        List<Condition> terms = PartiqlPlans.terms(s.where());
        List<Condition> keyTerms = new ArrayList<>();
        for (String attribute : partitionKey) {
            for (Condition t : terms) {
                if (PartiqlPlans.equality(t, attribute) != null) {
                    keyTerms.add(t);
                    break;
                }
            }
        }
        boolean query = keyTerms.size() == partitionKey.size();
        Condition.In partitionIn = null;
        Condition partitionInTerm = null;
        if (!query && partitionKey.size() == 1) {
            for (Condition t : terms) {
                Condition.In in = PartiqlPlans.partitionIn(t, partitionKey.get(0));
                if (in != null) {
                    partitionIn = in;
                    partitionInTerm = t;
                    keyTerms.add(t);
                    query = true;
                    break;
                }
            }
        }
        if (query && sortKey.size() == 1) {
            for (Condition t : terms) {
                if (!keyTerms.contains(t) && PartiqlPlans.sortKeyCondition(t, sortKey.get(0))) {
                    keyTerms.add(t);
                    break;
                }
            }
        }
        List<Condition> rest = new ArrayList<>(terms);
        rest.removeAll(keyTerms);
        // A Query's FilterExpression may not read key attributes, but WHERE may test them beyond
        // the key condition (sk <> 3, sk IN (...), a second sort key term). DynamoDB still runs
        // such a statement as a Query of the partition (its SELECT reference: an equality or IN
        // on the partition key avoids a full scan), so those terms are applied here to the
        // Query's items: the same items read, so the same capacity and the same pages. (They
        // used to turn the statement into a Scan of the whole table.)
        List<Condition> keyFilter = new ArrayList<>();
        if (query) {
            for (Condition t : rest) if (PartiqlPlans.mentions(t, keyAttributes)) keyFilter.add(t);
            rest.removeAll(keyFilter);
        }
        List<Path> projection = s.projection();
        if (!keyFilter.isEmpty() && projection != null) {
            projection = new ArrayList<>(projection);
            for (String key : keyAttributes) {
                if (!PartiqlPlans.projects(projection, key)) projection.add(Path.of(key));
            }
        }
        if (s.orderBy() != null && !query) {
            // DynamoDB Local's wording (INCOMPLETE_KEY_IN_WHERE_CLAUSE_FOR_ORDER_BY).
            throw DynamoDbException.validation(
                    "Must have at least one non-optional hash key condition in WHERE clause when using ORDER BY clause.");
        }
        if (partitionIn != null) {
            keyTerms.remove(partitionInTerm);
            page = queryEach(table, s, projection, partitionKey.get(0), partitionIn, keyTerms, PartiqlPlans.and(rest),
                    startKey, limit, consistent);
        } else if (query) {
            page = engine.items().query(table, new QuerySpec(s.indexName(),
                    KeyConditions.fromExpression(PartiqlPlans.and(keyTerms)), PartiqlPlans.and(rest), false,
                    projection, null, startKey, limit, !s.descending(), consistent));
        } else {
            page = engine.items().scan(table, new ScanSpec(s.indexName(), s.where(), s.projection(), null, startKey,
                    0, 1, limit, consistent));
        }
        if (!keyFilter.isEmpty()) page = keyFiltered(page, PartiqlPlans.and(keyFilter), s.projection(), keyAttributes);
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("Items");
        for (Map<String, AttributeValue> item : page.items()) AttributeValueJson.writeItem(g, item);
        g.writeEndArray();
        if (page.lastEvaluatedKey() != null) {
            g.writeStringField("NextToken", Base64.getEncoder().encodeToString(ItemCodec.encode(page.lastEvaluatedKey())));
            g.writeFieldName("LastEvaluatedKey");
            AttributeValueJson.writeItem(g, page.lastEvaluatedKey());
        }
        ItemResponses.writeConsumedCapacity(g, request.returnConsumedCapacity(), s.tableName(), page.consumed());
        response.returnedItems(s.tableName(), page.count());
    }

    /**
     * {@code partitionKey IN (...)}: a Query of each partition, in the order written, as one page
     * (Limit counts the items read across them, as it would in one Query; capacity is their
     * sum). A NextToken's partition key says which of them to go on with.
     */
    private Page queryEach(TableDefinition table, Statement.Select s, List<Path> projection, String partitionKey,
                           Condition.In in,
                           List<Condition> sortKeyTerms, Condition filter, Map<String, AttributeValue> startKey,
                           int limit, boolean consistent) {
        List<AttributeValue> values = new ArrayList<>();
        for (Operand candidate : in.candidates()) {
            AttributeValue v = ((Operand.Constant) candidate).value();
            if (!values.contains(v)) values.add(v);
        }
        int from = 0;
        if (startKey != null) {
            from = values.indexOf(startKey.get(partitionKey));
            if (from < 0) throw DynamoDbException.validation("Invalid NextToken");
        }
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        ConsumedCapacity.Builder consumed = new ConsumedCapacity.Builder();
        int count = 0;
        int scanned = 0;
        long bytes = 0;
        Map<String, AttributeValue> lastEvaluatedKey = null;
        Page last = null;
        for (int i = from; i < values.size() && lastEvaluatedKey == null; i++) {
            List<Condition> keyTerms = new ArrayList<>();
            keyTerms.add(new Condition.Comparison(Condition.Comparator.EQ,
                    new Operand.PathOperand(Path.of(partitionKey)), new Operand.Constant(values.get(i))));
            keyTerms.addAll(sortKeyTerms);
            last = engine.items().query(table, new QuerySpec(s.indexName(),
                    KeyConditions.fromExpression(PartiqlPlans.and(keyTerms)), filter, false, projection, null,
                    i == from ? startKey : null, limit - scanned, !s.descending(), consistent));
            items.addAll(last.items());
            count += last.count();
            scanned += last.scannedCount();
            bytes += last.bytesRead();
            if (last.consumed() != null) consumed.add(last.consumed());
            lastEvaluatedKey = last.lastEvaluatedKey();
        }
        if (last == null) return new Page(List.of(), 0, 0, 0, null, null, ConsumedCapacity.ofTable(0));
        return new Page(items, count, scanned, bytes, lastEvaluatedKey, last.usage(), consumed.build());
    }

    /**
     * The page's items that match {@code keyFilter} (WHERE's terms on key attributes that no key
     * condition took), without the key attributes the projection did not ask for (they were
     * projected only to be tested). Count, scanned count, LastEvaluatedKey and capacity stay the
     * Query's: a filter changes what is returned, not what is read.
     */
    private static Page keyFiltered(Page page, Condition keyFilter, List<Path> projection, List<String> keyAttributes) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (Map<String, AttributeValue> item : page.items()) {
            if (!ConditionEvaluator.matches(keyFilter, item)) continue;
            if (projection != null) {
                Map<String, AttributeValue> projected = new java.util.LinkedHashMap<>(item);
                for (String key : keyAttributes) {
                    if (!PartiqlPlans.projects(projection, key)) projected.remove(key);
                }
                item = projected;
            }
            items.add(item);
        }
        return new Page(items, items.size(), page.scannedCount(), page.bytesRead(), page.lastEvaluatedKey(),
                page.usage(), page.consumed());
    }

    private static Map<String, AttributeValue> nextToken(String token) {
        if (token == null) return null;
        try {
            return ItemCodec.decode(Base64.getDecoder().decode(token));
        } catch (RuntimeException e) {
            // DynamoDB Local's wording (ValidationExceptionMessages.INVALID_NEXT_TOKEN).
            throw DynamoDbException.validation("Invalid NextToken");
        }
    }

    // ---- writes -------------------------------------------------------------------------------

    private void write(ItemWrite write, boolean insert, String tableName, ExecuteStatementInput request,
                       ResponseBody response) throws IOException {
        WriteResult result;
        try {
            result = engine.items().write(write);
        } catch (ConditionalCheckFailedException e) {
            // INSERT's only condition is that the key is free. The text is DynamoDB Local's
            // (ValidationExceptionMessages.DUPLICATE_ITEM_IN_TABLE).
            if (insert) throw PartiqlWrites.duplicateItem();
            throw e;
        }
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("Items");
        Map<String, AttributeValue> returned = result.returnedAttributes();
        if (returned != null && !returned.isEmpty()) AttributeValueJson.writeItem(g, returned);
        g.writeEndArray();
        ItemResponses.writeConsumedCapacity(g, request.returnConsumedCapacity(), tableName, result.consumed());
    }


    private static boolean returnsOldItemOnFailure(ExecuteStatementInput request) {
        return "ALL_OLD".equals(request.returnValuesOnConditionCheckFailure());
    }
}

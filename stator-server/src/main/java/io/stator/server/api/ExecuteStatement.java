package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.core.error.DynamoDbException;
import io.stator.core.expression.Condition;
import io.stator.core.expression.ConditionEvaluator;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import io.stator.core.expression.Projector;
import io.stator.core.item.ItemCodec;
import io.stator.core.model.AttributeValue;
import io.stator.core.partiql.PartiqlParser;
import io.stator.core.partiql.Statement;
import io.stator.engine.Engine;
import io.stator.engine.advisor.Operation;
import io.stator.engine.capacity.ConsumedCapacity;
import io.stator.engine.index.IndexEntries;
import io.stator.engine.read.KeyConditions;
import io.stator.engine.read.Page;
import io.stator.engine.read.QuerySpec;
import io.stator.engine.read.ScanSpec;
import io.stator.engine.read.Select;
import io.stator.engine.table.IndexDefinition;
import io.stator.engine.table.TableDefinition;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.WriteResult;
import io.stator.server.access.Authorizer;
import io.stator.server.protocol.AttributeValueJson;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ExecuteStatementInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
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
 * <p>NextToken is the page's LastEvaluatedKey in the engine's item encoding, in base64, after a
 * digest of the statement: opaque to clients and tied to the statement, as DynamoDB's is.
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
        if (statement instanceof Statement.Exists) throw PartiqlWrites.existsOutsideTransaction();
        if (access.enforced()) Permissions.statement(access, engine, statement, null);
        switch (statement) {
            case Statement.Select s -> select(s, request, response);
            case Statement.Insert s -> write(PartiqlWrites.insert(engine, s), true, s.tableName(), request, response);
            case Statement.Update s -> write(PartiqlWrites.update(engine, s, returnsOldItemOnFailure(request)), false,
                    s.tableName(), request, response);
            case Statement.Delete s -> write(PartiqlWrites.delete(engine, s, returnsOldItemOnFailure(request)), false,
                    s.tableName(), request, response);
            case Statement.Exists s -> throw PartiqlWrites.existsOutsideTransaction();
        }
    }

    // ---- SELECT -------------------------------------------------------------------------------

    private void select(Statement.Select s, ExecuteStatementInput request, ResponseBody response) throws IOException {
        TableDefinition table = engine.tables().require(s.tableName());
        IndexDefinition index = null;
        if (s.indexName() != null) {
            index = table.index(s.indexName());
            if (index == null || index.status() == IndexDefinition.IndexStatus.DELETING) {
                // As recorded from DynamoDB by dynamodb-conformance: no index name appended
                // (Query's wording appends it), also when the qualifier names the table itself.
                throw DynamoDbException.validation("The table does not have the specified index");
            }
            // A vector index is read by SearchVectors only; DynamoDB answers PartiQL with its Scan
            // text (docs/dynamodb/vector-search.md §3.4).
            if (index.isVector()) throw DynamoDbException.validation("Scan operation not supported on this index type");
            if (index.global() && Boolean.TRUE.equals(request.consistentRead())) {
                // As recorded from DynamoDB by dynamodb-conformance (Query words it differently).
                throw DynamoDbException.validation("Strongly consistent read is not supported on Global Secondary Indexes");
            }
        }
        PartiqlPlans.KeyAttributes keys = PartiqlPlans.KeyAttributes.of(table, s.indexName());
        List<String> partitionKey = keys.partitionKey();
        List<String> sortKey = keys.sortKey();
        List<String> keyAttributes = keys.all();
        if (s.orderBy() != null && !PartiqlPlans.isKeyPath(s.orderBy(), keyAttributes)) {
            // DynamoDB Local's wording (ValidationExceptionMessages.INVALID_ATTRIBUTES_IN_ORDER_BY).
            throw DynamoDbException.validation("Variable reference " + s.orderBy().topLevelName()
                    + " in ORDER BY clause must be part of the primary key");
        }
        Map<String, AttributeValue> startKey = nextToken(request.nextToken(), request.statement());
        int limit = ReadRequests.limit(request.limit());
        boolean consistent = Boolean.TRUE.equals(request.consistentRead());
        Page page;
        List<Condition> terms = PartiqlPlans.terms(s.where());
        PartiqlPlans.SelectPlan plan = PartiqlPlans.selectPlan(terms, keys);
        List<Condition> keyTerms = new ArrayList<>(plan.keyTerms());
        boolean query = plan.query();
        Condition.In partitionIn = plan.partitionIn();
        Condition partitionInTerm = plan.partitionInTerm();
        List<Condition> rest = new ArrayList<>(terms);
        rest.removeAll(keyTerms);
        // A Query's FilterExpression may not read key attributes, but WHERE may test them beyond
        // the key condition (sk <> 3, sk IN (...), a second sort key term). DynamoDB still runs
        // such a statement as a Query of the partition (its SELECT reference: an equality or IN
        // on the partition key avoids a full scan), so those terms are applied here to the
        // Query's items: the same items read, so the same capacity and the same pages.
        List<Condition> keyFilter = new ArrayList<>();
        if (query) {
            for (Condition t : rest) if (PartiqlPlans.mentions(t, keyAttributes)) keyFilter.add(t);
            rest.removeAll(keyFilter);
        }
        if (query && index != null) PartiqlPlans.checkFilterProjected(table, index, rest);
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
        } else if (query && index != null && !index.global() && !projects(table, index, s.projection())) {
            page = queryReachingBack(table, s, projection, keyTerms, PartiqlPlans.and(rest), startKey, limit, consistent);
        } else if (query) {
            page = engine.items().query(Operation.EXECUTE_STATEMENT, table, new QuerySpec(s.indexName(),
                    KeyConditions.fromExpression(PartiqlPlans.and(keyTerms)), PartiqlPlans.and(rest), false,
                    projection, null, startKey, limit, !s.descending(), consistent));
        } else if (index != null && !index.global() && s.where() != null
                && !PartiqlPlans.projectsAll(table, index, s.where())) {
            page = scanFilteringProjection(table, index, s, startKey, limit, consistent);
        } else {
            page = engine.items().scan(Operation.EXECUTE_STATEMENT, table, new ScanSpec(s.indexName(), s.where(), s.projection(), null, startKey,
                    0, 1, limit, consistent));
        }
        if (!keyFilter.isEmpty()) page = keyFiltered(page, PartiqlPlans.and(keyFilter), s.projection(), keyAttributes);
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("Items");
        for (Map<String, AttributeValue> item : page.items()) {
            AttributeValueJson.writeItem(g, PartiqlPlans.named(item, s.projection()));
        }
        g.writeEndArray();
        if (page.lastEvaluatedKey() != null) {
            g.writeStringField("NextToken", nextToken(page.lastEvaluatedKey(), request.statement()));
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
            last = engine.items().query(Operation.EXECUTE_STATEMENT, table, new QuerySpec(s.indexName(),
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
     * A keyed read of a local index naming attributes it does not project: the index's entries,
     * then each one's item read from the table, as a GetItem is (rounded up per item), for every
     * entry walked whether or not the filter keeps it. As recorded from DynamoDB by
     * dynamodb-conformance: the table arm is charged on rows walked, and less for a smaller Limit
     * (Query's own fetches are billed summed, so this is not the engine's Query).
     */
    private Page queryReachingBack(TableDefinition table, Statement.Select s, List<Path> projection,
                                   List<Condition> keyTerms, Condition filter, Map<String, AttributeValue> startKey,
                                   int limit, boolean consistent) {
        Page entries = engine.items().query(Operation.EXECUTE_STATEMENT, table, new QuerySpec(s.indexName(),
                KeyConditions.fromExpression(PartiqlPlans.and(keyTerms)), null, false, null, null, startKey, limit,
                !s.descending(), consistent));
        ConsumedCapacity.Builder consumed = new ConsumedCapacity.Builder();
        if (entries.consumed() != null) consumed.add(entries.consumed());
        List<String> tableKey = PartiqlWrites.keyAttributes(table);
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Condition itemFilter = filter == null ? null : ConditionEvaluator.folded(filter);
        for (Map<String, AttributeValue> entry : entries.items()) {
            Map<String, AttributeValue> key = new java.util.LinkedHashMap<>();
            for (String k : tableKey) key.put(k, entry.get(k));
            Page fetched = engine.items().get(Operation.EXECUTE_STATEMENT, table, key, consistent, null);
            if (fetched.consumed() != null) consumed.add(fetched.consumed());
            Map<String, AttributeValue> item = fetched.item();
            if (item == null || (itemFilter != null && !ConditionEvaluator.matches(itemFilter, item))) continue;
            items.add(Projector.project(item, projection));
        }
        return new Page(items, items.size(), entries.scannedCount(), entries.bytesRead(), entries.lastEvaluatedKey(),
                entries.usage(), consumed.build());
    }

    /**
     * An unkeyed read of a local index whose WHERE names attributes the index does not project:
     * DynamoDB filters what the index holds (such an attribute is missing there), as recorded by
     * dynamodb-conformance, where the engine's Scan would fetch the items from the table for the
     * filter. So the index is scanned unfiltered (fetching only for a projection that needs it)
     * and filtered here, each item as the index projects it; Limit and capacity are the Scan's.
     */
    private Page scanFilteringProjection(TableDefinition table, IndexDefinition index, Statement.Select s,
                                         Map<String, AttributeValue> startKey, int limit, boolean consistent) {
        boolean reachBack = !projects(table, index, s.projection());
        Page scanned = engine.items().scan(Operation.EXECUTE_STATEMENT, table, new ScanSpec(s.indexName(), null, null,
                reachBack ? Select.ALL_ATTRIBUTES : null, startKey, 0, 1, limit, consistent));
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Condition where = ConditionEvaluator.folded(s.where());
        for (Map<String, AttributeValue> item : scanned.items()) {
            Map<String, AttributeValue> held = IndexEntries.project(table, index, item);
            if (!ConditionEvaluator.matches(where, held)) continue;
            items.add(s.projection() == null ? held : Projector.project(item, s.projection()));
        }
        return new Page(items, items.size(), scanned.scannedCount(), scanned.bytesRead(), scanned.lastEvaluatedKey(),
                scanned.usage(), scanned.consumed());
    }

    /** True when the index projects every attribute of the projection (or it is {@code *}). */
    private static boolean projects(TableDefinition table, IndexDefinition index, List<Path> projection) {
        if (projection == null) return true;
        for (Path p : projection) if (!index.projects(p.topLevelName(), table.keySchema())) return false;
        return true;
    }

    /**
     * A NextToken is the page's LastEvaluatedKey in the engine's item encoding, after a digest of
     * the statement it continues: DynamoDB refuses a token replayed against another statement
     * (recorded by dynamodb-conformance with a token of one index read replayed against another).
     */
    private static String nextToken(Map<String, AttributeValue> lastEvaluatedKey, String statement) {
        byte[] key = ItemCodec.encode(lastEvaluatedKey);
        byte[] token = new byte[TOKEN_DIGEST + key.length];
        System.arraycopy(statementDigest(statement), 0, token, 0, TOKEN_DIGEST);
        System.arraycopy(key, 0, token, TOKEN_DIGEST, key.length);
        return Base64.getEncoder().encodeToString(token);
    }

    /**
     * The page's items that match {@code keyFilter} (WHERE's terms on key attributes that no key
     * condition took), without the key attributes the projection did not ask for (they were
     * projected only to be tested). Count, scanned count, LastEvaluatedKey and capacity stay the
     * Query's: a filter changes what is returned, not what is read.
     */
    private static Page keyFiltered(Page page, Condition keyFilter, List<Path> projection, List<String> keyAttributes) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Condition filter = ConditionEvaluator.folded(keyFilter);
        for (Map<String, AttributeValue> item : page.items()) {
            if (!ConditionEvaluator.matches(filter, item)) continue;
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

    private static Map<String, AttributeValue> nextToken(String token, String statement) {
        if (token == null) return null;
        try {
            byte[] bytes = Base64.getDecoder().decode(token);
            if (bytes.length <= TOKEN_DIGEST
                    || !Arrays.equals(bytes, 0, TOKEN_DIGEST, statementDigest(statement), 0, TOKEN_DIGEST)) {
                throw new IllegalArgumentException("NextToken of another statement");
            }
            return ItemCodec.decode(Arrays.copyOfRange(bytes, TOKEN_DIGEST, bytes.length));
        } catch (RuntimeException e) {
            // DynamoDB Local's wording (ValidationExceptionMessages.INVALID_NEXT_TOKEN); DynamoDB's
            // for a token of another statement is not recorded.
            throw DynamoDbException.validation("Invalid NextToken");
        }
    }

    /** How many bytes of the statement's SHA-256 a NextToken starts with. */
    private static final int TOKEN_DIGEST = 8;

    private static byte[] statementDigest(String statement) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(statement.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    // ---- writes -------------------------------------------------------------------------------

    private void write(ItemWrite write, boolean insert, String tableName, ExecuteStatementInput request,
                       ResponseBody response) throws IOException {
        WriteResult result = PartiqlWrites.run(engine, Operation.EXECUTE_STATEMENT, write, insert);
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

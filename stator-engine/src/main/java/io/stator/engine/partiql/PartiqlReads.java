package io.stator.engine.partiql;

import io.stator.core.expression.Condition;
import io.stator.core.expression.ConditionEvaluator;
import io.stator.core.expression.Operand;
import io.stator.core.expression.Path;
import io.stator.core.expression.Projector;
import io.stator.core.model.AttributeValue;
import io.stator.core.partiql.Statement;
import io.stator.engine.Engine;
import io.stator.engine.Items;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * ExecuteStatement's SELECT, run as its {@link SelectPlan} says: each kind of plan is the
 * engine's Query, Scan or GetItem reads, each admitted and charged by the capacity meter as those
 * operations are (so a statement's capacity is the sum of its reads'). Two kinds stay a sequence
 * of reads rather than one read plan because DynamoDB bills them as such: an IN list is a Query
 * of each partition (each one's units rounded on its own, each admitted in its own partition),
 * and a local index's items fetched for a projection are each billed as a GetItem (as recorded
 * from DynamoDB by dynamodb-conformance: charged on rows walked, less for a smaller Limit).
 */
public final class PartiqlReads {

    private PartiqlReads() {}

    /** A page of a SELECT's items (named as SELECT names them) and the NextToken to go on with, or null. */
    public record Result(Page page, String nextToken) {}

    /**
     * The page of {@code s} that {@code nextToken} asks for. Checks in DynamoDB's order: the
     * table, the index, ORDER BY, NextToken, then the plan's (filters on what an index projects).
     *
     * @param statementText the statement as sent (a NextToken is tied to it)
     * @param limit         Limit, or Integer.MAX_VALUE
     */
    public static Result select(Engine engine, Statement.Select s, String statementText, String nextToken, int limit,
                                boolean consistentRead) {
        TableDefinition table = engine.tables().require(s.tableName());
        IndexDefinition index = SelectPlan.target(table, s, consistentRead);
        Map<String, AttributeValue> startKey = NextTokens.decode(nextToken, statementText);
        SelectPlan plan = SelectPlan.plan(table, index, s);
        Page page = read(engine.items(), plan, startKey, limit, consistentRead);
        List<Map<String, AttributeValue>> named = new ArrayList<>(page.items().size());
        for (Map<String, AttributeValue> item : page.items()) named.add(SelectedNames.named(item, s.projection()));
        Page result = new Page(named, page.count(), page.scannedCount(), page.bytesRead(), page.lastEvaluatedKey(),
                page.usage(), page.consumed());
        return new Result(result, page.lastEvaluatedKey() == null ? null
                : NextTokens.encode(page.lastEvaluatedKey(), statementText));
    }

    /** One page of the plan's read, from {@code startKey} (null for the first). */
    static Page read(Items items, SelectPlan plan, Map<String, AttributeValue> startKey, int limit,
                     boolean consistentRead) {
        Statement.Select s = plan.statement();
        return switch (plan.kind()) {
            case QUERY -> items.query(Operation.EXECUTE_STATEMENT, plan.table(), query(plan, plan.keyTerms(),
                    s.projection(), plan.filter(), startKey, limit, consistentRead), plan.keyFilter());
            case QUERY_EACH_PARTITION -> queryEach(items, plan, startKey, limit, consistentRead);
            case QUERY_FETCHING_ITEMS -> queryFetchingItems(items, plan, startKey, limit, consistentRead);
            case SCAN -> items.scan(Operation.EXECUTE_STATEMENT, plan.table(), new ScanSpec(s.indexName(), s.where(),
                    s.projection(), null, startKey, 0, 1, limit, consistentRead));
            case SCAN_FILTERING_INDEX -> scanFilteringIndex(items, plan, startKey, limit, consistentRead);
        };
    }

    private static QuerySpec query(SelectPlan plan, List<Condition> keyTerms, List<Path> projection, Condition filter,
                                   Map<String, AttributeValue> startKey, int limit, boolean consistentRead) {
        Statement.Select s = plan.statement();
        return new QuerySpec(s.indexName(), KeyConditions.fromExpression(WhereTerms.and(keyTerms)), filter, false,
                projection, null, startKey, limit, !s.descending(), consistentRead);
    }

    /**
     * {@code partitionKey IN (...)}: a Query of each partition, in the order written, as one page
     * (Limit counts the items read across them, as it would in one Query; capacity is their
     * sum). A NextToken's partition key says which of them to go on with.
     */
    private static Page queryEach(Items items, SelectPlan plan, Map<String, AttributeValue> startKey, int limit,
                                  boolean consistentRead) {
        List<AttributeValue> partitions = plan.partitions();
        String partitionKey = plan.partitionKey();
        int from = 0;
        if (startKey != null) {
            from = partitions.indexOf(startKey.get(partitionKey));
            if (from < 0) throw NextTokens.invalid();
        }
        List<Map<String, AttributeValue>> returned = new ArrayList<>();
        ConsumedCapacity.Builder consumed = new ConsumedCapacity.Builder();
        int count = 0;
        int scanned = 0;
        long bytes = 0;
        Map<String, AttributeValue> lastEvaluatedKey = null;
        Page last = null;
        for (int i = from; i < partitions.size() && lastEvaluatedKey == null; i++) {
            List<Condition> keyTerms = new ArrayList<>();
            keyTerms.add(new Condition.Comparison(Condition.Comparator.EQ,
                    new Operand.PathOperand(Path.of(partitionKey)), new Operand.Constant(partitions.get(i))));
            keyTerms.addAll(plan.keyTerms());
            last = items.query(Operation.EXECUTE_STATEMENT, plan.table(), query(plan, keyTerms,
                    plan.statement().projection(), plan.filter(), i == from ? startKey : null, limit - scanned,
                    consistentRead), plan.keyFilter());
            returned.addAll(last.items());
            count += last.count();
            scanned += last.scannedCount();
            bytes += last.bytesRead();
            if (last.consumed() != null) consumed.add(last.consumed());
            lastEvaluatedKey = last.lastEvaluatedKey();
        }
        if (last == null) return new Page(List.of(), 0, 0, 0, null, null, ConsumedCapacity.ofTable(0));
        return new Page(returned, count, scanned, bytes, lastEvaluatedKey, last.usage(), consumed.build());
    }

    /**
     * A keyed read of a local index selecting attributes it does not project: the index's
     * entries, then each one's item read from the table, as a GetItem is (rounded up per item),
     * for every entry walked whether or not the filter keeps it.
     */
    private static Page queryFetchingItems(Items items, SelectPlan plan, Map<String, AttributeValue> startKey,
                                           int limit, boolean consistentRead) {
        TableDefinition table = plan.table();
        Page entries = items.query(Operation.EXECUTE_STATEMENT, table, query(plan, plan.keyTerms(), null, null,
                startKey, limit, consistentRead));
        ConsumedCapacity.Builder consumed = new ConsumedCapacity.Builder();
        if (entries.consumed() != null) consumed.add(entries.consumed());
        List<String> tableKey = KeyAttributes.ofTable(table);
        Condition filter = WhereTerms.and(nonNull(plan.filter(), plan.keyFilter()));
        Condition itemFilter = filter == null ? null : ConditionEvaluator.folded(filter);
        List<Map<String, AttributeValue>> returned = new ArrayList<>();
        for (Map<String, AttributeValue> entry : entries.items()) {
            Map<String, AttributeValue> key = new LinkedHashMap<>();
            for (String k : tableKey) key.put(k, entry.get(k));
            Page fetched = items.get(Operation.EXECUTE_STATEMENT, table, key, consistentRead, null);
            if (fetched.consumed() != null) consumed.add(fetched.consumed());
            Map<String, AttributeValue> item = fetched.item();
            if (item == null || (itemFilter != null && !ConditionEvaluator.matches(itemFilter, item))) continue;
            returned.add(Projector.project(item, plan.statement().projection()));
        }
        return new Page(returned, returned.size(), entries.scannedCount(), entries.bytesRead(),
                entries.lastEvaluatedKey(), entries.usage(), consumed.build());
    }

    /**
     * An unkeyed read of a local index whose WHERE names attributes the index does not project:
     * DynamoDB filters what the index holds (such an attribute is missing there), as recorded by
     * dynamodb-conformance, where the engine's Scan would fetch the items from the table for the
     * filter. So the index is scanned unfiltered (fetching only for a projection that needs it)
     * and each entry filtered as the index projects it; Limit and capacity are the Scan's.
     */
    private static Page scanFilteringIndex(Items items, SelectPlan plan, Map<String, AttributeValue> startKey,
                                           int limit, boolean consistentRead) {
        Statement.Select s = plan.statement();
        TableDefinition table = plan.table();
        boolean fetch = !SelectPlan.projects(table, plan.index(), s.projection());
        Page scanned = items.scan(Operation.EXECUTE_STATEMENT, table, new ScanSpec(s.indexName(), null, null,
                fetch ? Select.ALL_ATTRIBUTES : null, startKey, 0, 1, limit, consistentRead));
        List<Map<String, AttributeValue>> returned = new ArrayList<>();
        Condition where = ConditionEvaluator.folded(s.where());
        for (Map<String, AttributeValue> item : scanned.items()) {
            Map<String, AttributeValue> held = IndexEntries.project(table, plan.index(), item);
            if (!ConditionEvaluator.matches(where, held)) continue;
            returned.add(s.projection() == null ? held : Projector.project(item, s.projection()));
        }
        return new Page(returned, returned.size(), scanned.scannedCount(), scanned.bytesRead(),
                scanned.lastEvaluatedKey(), scanned.usage(), scanned.consumed());
    }

    private static List<Condition> nonNull(Condition... conditions) {
        List<Condition> list = new ArrayList<>();
        for (Condition c : conditions) if (c != null) list.add(c);
        return list;
    }
}

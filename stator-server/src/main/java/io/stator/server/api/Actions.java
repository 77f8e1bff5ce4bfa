package io.stator.server.api;

import io.stator.engine.Engine;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/** The actions Stator serves, by DynamoDB's name for them. */
public final class Actions {

    private final Map<String, Action> actions = new HashMap<>();

    /** @param endpointAddress this server's address, as DescribeEndpoints gives it (host:port) */
    public Actions(Engine engine, Supplier<String> endpointAddress) {
        actions.put("CreateTable", new CreateTable(engine));
        actions.put("DescribeTable", new DescribeTable(engine));
        actions.put("ListTables", new ListTables(engine));
        actions.put("UpdateTable", new UpdateTable(engine));
        actions.put("DeleteTable", new DeleteTable(engine));
        actions.put("TagResource", new TagResource(engine));
        actions.put("UntagResource", new UntagResource(engine));
        actions.put("ListTagsOfResource", new ListTagsOfResource(engine));
        actions.put("DescribeEndpoints", new DescribeEndpoints(endpointAddress));
        actions.put("DescribeLimits", new DescribeLimits());
        actions.put("PutItem", new PutItem(engine));
        actions.put("GetItem", new GetItem(engine));
        actions.put("DeleteItem", new DeleteItem(engine));
        actions.put("UpdateItem", new UpdateItem(engine));
        actions.put("Query", new Query(engine));
        actions.put("Scan", new Scan(engine));
        actions.put("BatchGetItem", new BatchGetItem(engine));
        actions.put("BatchWriteItem", new BatchWriteItem(engine));
        actions.put("TransactWriteItems", new TransactWriteItems(engine));
        actions.put("TransactGetItems", new TransactGetItems(engine));
    }

    /** The action of that name, or null when Stator does not serve it (yet). */
    public Action get(String name) {
        return actions.get(name);
    }
}

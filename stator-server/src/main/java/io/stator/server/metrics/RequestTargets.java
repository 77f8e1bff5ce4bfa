package io.stator.server.metrics;

import io.stator.server.protocol.request.BatchGetItemInput;
import io.stator.server.protocol.request.BatchWriteItemInput;
import io.stator.server.protocol.request.CreateBackupInput;
import io.stator.server.protocol.request.CreateTableInput;
import io.stator.server.protocol.request.DeleteItemInput;
import io.stator.server.protocol.request.DeleteResourcePolicyInput;
import io.stator.server.protocol.request.DeleteTableInput;
import io.stator.server.protocol.request.DescribeContinuousBackupsInput;
import io.stator.server.protocol.request.DescribeKinesisStreamingDestinationInput;
import io.stator.server.protocol.request.KinesisStreamingDestinationInput;
import io.stator.server.protocol.request.UpdateKinesisStreamingDestinationInput;
import io.stator.server.protocol.request.DescribeStreamInput;
import io.stator.server.protocol.request.DescribeTableInput;
import io.stator.server.protocol.request.DescribeTimeToLiveInput;
import io.stator.server.protocol.request.GetItemInput;
import io.stator.server.protocol.request.GetResourcePolicyInput;
import io.stator.server.protocol.request.GetShardIteratorInput;
import io.stator.server.protocol.request.ListStreamsInput;
import io.stator.server.protocol.request.ListTagsOfResourceInput;
import io.stator.server.protocol.request.ModelStructure;
import io.stator.server.protocol.request.PutItemInput;
import io.stator.server.protocol.request.PutResourcePolicyInput;
import io.stator.server.protocol.request.QueryInput;
import io.stator.server.protocol.request.ScanInput;
import io.stator.server.protocol.request.TagResourceInput;
import io.stator.server.protocol.request.TransactGetItem;
import io.stator.server.protocol.request.TransactGetItemsInput;
import io.stator.server.protocol.request.TransactWriteItem;
import io.stator.server.protocol.request.TransactWriteItemsInput;
import io.stator.server.protocol.request.UntagResourceInput;
import io.stator.server.protocol.request.UpdateContinuousBackupsInput;
import io.stator.server.protocol.request.UpdateItemInput;
import io.stator.server.protocol.request.UpdateTableInput;
import io.stator.server.protocol.request.UpdateTimeToLiveInput;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables a request names, and the index, for the labels of its metrics: its TableName (or a
 * table's ARN there), the table of a ResourceArn or StreamArn, the tables of a batch's
 * RequestItems, and of each action of a transaction. What is returned is what the client sent:
 * {@link RequestMetrics} keeps only the names of tables that exist.
 */
final class RequestTargets {

    private RequestTargets() {}

    /** The one table a request names, or null when it names none, or several (batches, transactions). */
    static String table(ModelStructure input) {
        return switch (input) {
            case GetItemInput r -> r.tableName();
            case PutItemInput r -> r.tableName();
            case UpdateItemInput r -> r.tableName();
            case DeleteItemInput r -> r.tableName();
            case QueryInput r -> r.tableName();
            case ScanInput r -> r.tableName();
            case DescribeTableInput r -> r.tableName();
            case CreateTableInput r -> r.tableName();
            case UpdateTableInput r -> r.tableName();
            case DeleteTableInput r -> r.tableName();
            case DescribeTimeToLiveInput r -> r.tableName();
            case UpdateTimeToLiveInput r -> r.tableName();
            case DescribeKinesisStreamingDestinationInput r -> r.tableName();
            case KinesisStreamingDestinationInput r -> r.tableName();
            case UpdateKinesisStreamingDestinationInput r -> r.tableName();
            case ListStreamsInput r -> r.tableName();
            case CreateBackupInput r -> r.tableName();
            case DescribeContinuousBackupsInput r -> r.tableName();
            case UpdateContinuousBackupsInput r -> r.tableName();
            case TagResourceInput r -> tableOfArn(r.resourceArn());
            case UntagResourceInput r -> tableOfArn(r.resourceArn());
            case ListTagsOfResourceInput r -> tableOfArn(r.resourceArn());
            case PutResourcePolicyInput r -> tableOfArn(r.resourceArn());
            case GetResourcePolicyInput r -> tableOfArn(r.resourceArn());
            case DeleteResourcePolicyInput r -> tableOfArn(r.resourceArn());
            case DescribeStreamInput r -> tableOfArn(r.streamArn());
            case GetShardIteratorInput r -> tableOfArn(r.streamArn());
            case null, default -> null;
        };
    }

    /** The index a request reads (Query's and Scan's IndexName), or null. */
    static String index(ModelStructure input) {
        if (input instanceof QueryInput q) return q.indexName();
        if (input instanceof ScanInput s) return s.indexName();
        return null;
    }

    /** True for the requests that may name several tables: batches and transactions. */
    static boolean namesSeveral(ModelStructure input) {
        return input instanceof BatchGetItemInput || input instanceof BatchWriteItemInput
                || input instanceof TransactWriteItemsInput || input instanceof TransactGetItemsInput;
    }

    /** The tables a batch or a transaction names, each once, in the request's order. */
    static List<String> tables(ModelStructure input) {
        List<String> tables = new ArrayList<>(2);
        switch (input) {
            case BatchGetItemInput r -> { if (r.requestItems() != null) tables.addAll(r.requestItems().keySet()); }
            case BatchWriteItemInput r -> { if (r.requestItems() != null) tables.addAll(r.requestItems().keySet()); }
            case TransactWriteItemsInput r -> {
                for (int i = 0; r.transactItems() != null && i < r.transactItems().size(); i++) {
                    addOnce(tables, transactTable(r, i));
                }
            }
            case TransactGetItemsInput r -> {
                for (int i = 0; r.transactItems() != null && i < r.transactItems().size(); i++) {
                    addOnce(tables, transactTable(r, i));
                }
            }
            case null, default -> {
                String table = table(input);
                if (table != null) tables.add(table);
            }
        }
        return tables;
    }

    /** The table of a transaction's action at {@code position} (as its CancellationReasons are), or null. */
    static String transactTable(ModelStructure input, int position) {
        if (input instanceof TransactWriteItemsInput r && r.transactItems() != null
                && position < r.transactItems().size()) {
            TransactWriteItem a = r.transactItems().get(position);
            if (a == null) return null;
            if (a.put() != null) return a.put().tableName();
            if (a.update() != null) return a.update().tableName();
            if (a.delete() != null) return a.delete().tableName();
            if (a.conditionCheck() != null) return a.conditionCheck().tableName();
        } else if (input instanceof TransactGetItemsInput r && r.transactItems() != null
                && position < r.transactItems().size()) {
            TransactGetItem a = r.transactItems().get(position);
            if (a != null && a.get() != null) return a.get().tableName();
        }
        return null;
    }

    /**
     * The table of an ARN: {@code ...:table/NAME}, {@code ...:table/NAME/index/INDEX} or
     * {@code ...:table/NAME/stream/LABEL}; null for anything else.
     */
    static String tableOfArn(String arn) {
        if (arn == null) return null;
        int at = arn.indexOf(":table/");
        if (at < 0) return null;
        int start = at + ":table/".length();
        int end = arn.indexOf('/', start);
        return end < 0 ? arn.substring(start) : arn.substring(start, end);
    }

    private static void addOnce(List<String> tables, String table) {
        if (table != null && !tables.contains(table)) tables.add(table);
    }
}

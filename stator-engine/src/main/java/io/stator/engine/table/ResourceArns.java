package io.stator.engine.table;

import io.stator.core.error.DynamoDbException;
import io.stator.engine.table.TableArns.Arn;

/**
 * Resolves the ResourceArn of the tagging actions to a table, with DynamoDB's errors: not an
 * ARN, not a DynamoDB table, index or stream ARN (a backup's, say), an index ARN, another
 * region's or account's ARN, or no such table. (The tagging actions word these differently from a TableName given as an ARN, see
 * {@link TableArns#tableName}.)
 */
public final class ResourceArns {

    private ResourceArns() {}

    public static TableDefinition table(String arn, Catalog catalog) {
        if (!arn.startsWith("arn:")) {
            throw DynamoDbException.invalidParameter("ARNs must start with 'arn:': " + arn);
        }
        Arn parts = Arn.parse(arn);
        // "table/NAME", "table/NAME/index/INDEX" or "table/NAME/stream/LABEL"; not a backup's or an export's.
        String[] path = parts == null ? new String[0] : parts.resource().split("/", -1);
        boolean tableOrBelow = parts != null && parts.service().equals("dynamodb") && path[0].equals("table")
                && (path.length == 2 || path.length == 4 && (path[2].equals("index") || path[2].equals("stream")));
        if (!tableOrBelow) {
            throw DynamoDbException.invalidParameter("Provided Arn is not a DynamoDB resource arn: " + arn);
        }
        if (path.length == 4 && path[2].equals("index")) {
            throw DynamoDbException.invalidParameter("Invalid resource arn provided, only table or stream is "
                    + "accepted. Provided resource arn: " + arn);
        }
        TableArns arns = catalog.arns();
        if (!parts.region().equals(arns.region())) {
            throw DynamoDbException.validation("Invalid TableArn: Invalid ResourceArn provided as input " + arn);
        }
        if (!parts.accountId().equals(arns.accountId())) throw TableArns.accessDenied();
        // Tags are on tables only: a stream's ARN names nothing taggable.
        TableDefinition table = path.length == 2 ? catalog.find(path[1]) : null;
        if (table == null) {
            throw DynamoDbException.resourceNotFound("Requested resource not found: ResourceArn: " + arn + " not found");
        }
        return table;
    }
}

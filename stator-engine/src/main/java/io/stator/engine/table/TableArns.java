package io.stator.engine.table;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;

/**
 * Table ARNs of this server's region and account: {@code arn:aws:dynamodb:REGION:ACCOUNT:table/NAME}.
 * DynamoDB accepts a table's ARN wherever it accepts its name; this is where the two meet.
 */
public final class TableArns {

    private static final String PARTITION = "aws";

    private final String region;
    private final String accountId;
    private final String prefix;

    public TableArns(String region, String accountId) {
        this.region = region;
        this.accountId = accountId;
        this.prefix = "arn:" + PARTITION + ":dynamodb:" + region + ":" + accountId + ":table/";
    }

    /** The six parts of an ARN ("arn:partition:service:region:account:resource"). */
    public record Arn(String partition, String service, String region, String accountId, String resource) {

        /** The parts of {@code text}, or null when it is not "arn:" and five more ':'-separated parts. */
        public static Arn parse(String text) {
            String[] parts = text.split(":", 6);
            if (parts.length != 6 || !parts[0].equals("arn")) return null;
            return new Arn(parts[1], parts[2], parts[3], parts[4], parts[5]);
        }
    }

    public String region() { return region; }

    public String accountId() { return accountId; }

    public String tableArn(String tableName) {
        return prefix + tableName;
    }

    public String streamArn(String tableName, String streamLabel) {
        return prefix + tableName + "/stream/" + streamLabel;
    }

    /**
     * The table name a request's TableName refers to: the name itself, or the name in a table ARN.
     * An ARN of another partition or region, or one that names no table (an index's, a stream's),
     * is a ValidationException; one of another account is AccessDeniedException, as DynamoDB
     * answers DescribeTable with them.
     */
    public String tableName(String nameOrArn) {
        if (!nameOrArn.startsWith("arn:")) return nameOrArn;
        Arn arn = Arn.parse(nameOrArn);
        if (arn != null && !arn.partition().equals(PARTITION)) throw invalidArn("Invalid AWS partition in", nameOrArn);
        if (arn != null && !arn.region().equals(region)) throw invalidArn("Invalid AWS region in", nameOrArn);
        if (arn != null && !arn.accountId().equals(accountId)) throw accessDenied();
        String name = nameOrArn.startsWith(prefix) ? nameOrArn.substring(prefix.length()) : "";
        if (name.isEmpty() || name.indexOf('/') >= 0) throw invalidArn("Invalid resource type in", nameOrArn);
        return name;
    }

    /** DynamoDB's answer to an ARN of another account. */
    public static DynamoDbException accessDenied() {
        return new DynamoDbException(ErrorType.ACCESS_DENIED, "Access is denied");
    }

    private static DynamoDbException invalidArn(String problem, String arn) {
        return DynamoDbException.validation("1 validation error detected: " + problem + " '" + arn + "'");
    }
}

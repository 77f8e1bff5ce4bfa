package io.stator.engine.table;

/**
 * Table ARNs of this server's region and account: {@code arn:aws:dynamodb:REGION:ACCOUNT:table/NAME}.
 * DynamoDB accepts a table's ARN wherever it accepts its name; this is where the two meet.
 */
public final class TableArns {

    private final String prefix;

    public TableArns(String region, String accountId) {
        this.prefix = "arn:aws:dynamodb:" + region + ":" + accountId + ":table/";
    }

    public String tableArn(String tableName) {
        return prefix + tableName;
    }

    public String streamArn(String tableName, String streamLabel) {
        return prefix + tableName + "/stream/" + streamLabel;
    }

    /**
     * The table name a request's TableName (or ResourceArn) refers to: the name itself, or the
     * name in an ARN of this region and account. Null for an ARN that names no table here.
     */
    public String tableName(String nameOrArn) {
        if (!nameOrArn.startsWith("arn:")) return nameOrArn;
        if (!nameOrArn.startsWith(prefix)) return null;
        String name = nameOrArn.substring(prefix.length());
        return name.isEmpty() || name.indexOf('/') >= 0 ? null : name;
    }
}

package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.server.access.AccessRequest;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Policy;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.BatchExecuteStatementInput;
import io.stator.server.protocol.request.BatchGetItemInput;
import io.stator.server.protocol.request.BatchWriteItemInput;
import io.stator.server.protocol.request.CreateBackupInput;
import io.stator.server.protocol.request.CreateGlobalTableInput;
import io.stator.server.protocol.request.CreateTableInput;
import io.stator.server.protocol.request.DeleteBackupInput;
import io.stator.server.protocol.request.DeleteItemInput;
import io.stator.server.protocol.request.DeleteResourcePolicyInput;
import io.stator.server.protocol.request.DeleteTableInput;
import io.stator.server.protocol.request.DescribeBackupInput;
import io.stator.server.protocol.request.DescribeContinuousBackupsInput;
import io.stator.server.protocol.request.DescribeContributorInsightsInput;
import io.stator.server.protocol.request.DescribeEndpointsRequest;
import io.stator.server.protocol.request.DescribeExportInput;
import io.stator.server.protocol.request.DescribeGlobalTableInput;
import io.stator.server.protocol.request.DescribeGlobalTableSettingsInput;
import io.stator.server.protocol.request.DescribeImportInput;
import io.stator.server.protocol.request.DescribeKinesisStreamingDestinationInput;
import io.stator.server.protocol.request.KinesisStreamingDestinationInput;
import io.stator.server.protocol.request.UpdateKinesisStreamingDestinationInput;
import io.stator.server.protocol.request.DescribeLimitsInput;
import io.stator.server.protocol.request.DescribeStreamInput;
import io.stator.server.protocol.request.DescribeTableInput;
import io.stator.server.protocol.request.DescribeTimeToLiveInput;
import io.stator.server.protocol.request.ExecuteStatementInput;
import io.stator.server.protocol.request.ExecuteTransactionInput;
import io.stator.server.protocol.request.ExportTableToPointInTimeInput;
import io.stator.server.protocol.request.GetItemInput;
import io.stator.server.protocol.request.GetRecordsInput;
import io.stator.server.protocol.request.GetResourcePolicyInput;
import io.stator.server.protocol.request.GetShardIteratorInput;
import io.stator.server.protocol.request.ImportTableInput;
import io.stator.server.protocol.request.ListBackupsInput;
import io.stator.server.protocol.request.ListContributorInsightsInput;
import io.stator.server.protocol.request.ListExportsInput;
import io.stator.server.protocol.request.ListGlobalTablesInput;
import io.stator.server.protocol.request.ListImportsInput;
import io.stator.server.protocol.request.ListStreamsInput;
import io.stator.server.protocol.request.ListTablesInput;
import io.stator.server.protocol.request.ListTagsOfResourceInput;
import io.stator.server.protocol.request.ModelStructure;
import io.stator.server.protocol.request.PutItemInput;
import io.stator.server.protocol.request.PutResourcePolicyInput;
import io.stator.server.protocol.request.QueryInput;
import io.stator.server.protocol.request.RestoreTableFromBackupInput;
import io.stator.server.protocol.request.RestoreTableToPointInTimeInput;
import io.stator.server.protocol.request.ScanInput;
import io.stator.server.protocol.request.SearchVectorsInput;
import io.stator.server.protocol.request.TagResourceInput;
import io.stator.server.protocol.request.TransactGetItemsInput;
import io.stator.server.protocol.request.TransactWriteItemsInput;
import io.stator.server.protocol.request.UntagResourceInput;
import io.stator.server.protocol.request.UpdateContinuousBackupsInput;
import io.stator.server.protocol.request.UpdateContributorInsightsInput;
import io.stator.server.protocol.request.UpdateGlobalTableInput;
import io.stator.server.protocol.request.UpdateGlobalTableSettingsInput;
import io.stator.server.protocol.request.UpdateItemInput;
import io.stator.server.protocol.request.UpdateTableInput;
import io.stator.server.protocol.request.UpdateTimeToLiveInput;
import io.stator.server.transfer.Transfers;
import java.io.IOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The actions Stator serves, by DynamoDB's name for them, each with the record its requests are
 * read into (the request records are generated for these operations, and for the few whose
 * action is being written: {@code RequestRecordsTest}).
 */
public final class Actions {

    /** An action with its input record's class, so that a request is handed to it type-safely. */
    private record Served<I extends ModelStructure>(Class<I> input, Action<I> action) {
        void execute(ModelStructure request, Authorizer access, ResponseBody response) throws IOException {
            action.execute(input.cast(request), access, response);
        }
    }

    private final Map<String, Served<?>> actions = new HashMap<>();

    /** @param endpointAddress this server's address, as DescribeEndpoints gives it (host:port) */
    public Actions(Engine engine, Supplier<String> endpointAddress) {
        this(engine, endpointAddress, null);
    }

    /**
     * @param endpointAddress this server's address, as DescribeEndpoints gives it (host:port)
     * @param transfers       the server's exports and imports; null where there are none (their
     *                        actions then answer that the server has no S3 to use)
     */
    public Actions(Engine engine, Supplier<String> endpointAddress, Transfers transfers) {
        serve("CreateTable", CreateTableInput.class, new CreateTable(engine));
        serve("DescribeTable", DescribeTableInput.class, new DescribeTable(engine));
        serve("ListTables", ListTablesInput.class, new ListTables(engine));
        serve("UpdateTable", UpdateTableInput.class, new UpdateTable(engine));
        serve("DeleteTable", DeleteTableInput.class, new DeleteTable(engine));
        serve("TagResource", TagResourceInput.class, new TagResource(engine));
        serve("UntagResource", UntagResourceInput.class, new UntagResource(engine));
        serve("ListTagsOfResource", ListTagsOfResourceInput.class, new ListTagsOfResource(engine));
        serve("DescribeEndpoints", DescribeEndpointsRequest.class, new DescribeEndpoints(endpointAddress));
        serve("DescribeLimits", DescribeLimitsInput.class, new DescribeLimits());
        serve("PutItem", PutItemInput.class, new PutItem(engine));
        serve("GetItem", GetItemInput.class, new GetItem(engine));
        serve("DeleteItem", DeleteItemInput.class, new DeleteItem(engine));
        serve("UpdateItem", UpdateItemInput.class, new UpdateItem(engine));
        serve("Query", QueryInput.class, new Query(engine));
        serve("Scan", ScanInput.class, new Scan(engine));
        serve("SearchVectors", SearchVectorsInput.class, new SearchVectors(engine));
        serve("BatchGetItem", BatchGetItemInput.class, new BatchGetItem(engine));
        serve("BatchWriteItem", BatchWriteItemInput.class, new BatchWriteItem(engine));
        serve("TransactWriteItems", TransactWriteItemsInput.class, new TransactWriteItems(engine));
        serve("TransactGetItems", TransactGetItemsInput.class, new TransactGetItems(engine));
        serve("ExecuteStatement", ExecuteStatementInput.class, new ExecuteStatement(engine));
        serve("BatchExecuteStatement", BatchExecuteStatementInput.class, new BatchExecuteStatement(engine));
        serve("ExecuteTransaction", ExecuteTransactionInput.class, new ExecuteTransaction(engine));
        serve("PutResourcePolicy", PutResourcePolicyInput.class, new PutResourcePolicy(engine));
        serve("GetResourcePolicy", GetResourcePolicyInput.class, new GetResourcePolicy(engine));
        serve("DeleteResourcePolicy", DeleteResourcePolicyInput.class, new DeleteResourcePolicy(engine));
        serve("UpdateTimeToLive", UpdateTimeToLiveInput.class, new UpdateTimeToLive(engine));
        serve("DescribeTimeToLive", DescribeTimeToLiveInput.class, new DescribeTimeToLive(engine));
        serve("DescribeKinesisStreamingDestination", DescribeKinesisStreamingDestinationInput.class,
                new DescribeKinesisStreamingDestination(engine));
        serve("EnableKinesisStreamingDestination", KinesisStreamingDestinationInput.class,
                new EnableKinesisStreamingDestination(engine));
        serve("DisableKinesisStreamingDestination", KinesisStreamingDestinationInput.class,
                new DisableKinesisStreamingDestination(engine));
        serve("UpdateKinesisStreamingDestination", UpdateKinesisStreamingDestinationInput.class,
                new UpdateKinesisStreamingDestination(engine));
        // Global tables version 2017.11.29 (Legacy), answered as DynamoDB answers them today.
        serve("CreateGlobalTable", CreateGlobalTableInput.class, new CreateGlobalTable(engine));
        serve("UpdateGlobalTable", UpdateGlobalTableInput.class, new UpdateGlobalTable(engine));
        serve("DescribeGlobalTable", DescribeGlobalTableInput.class, new DescribeGlobalTable(engine));
        serve("ListGlobalTables", ListGlobalTablesInput.class, new ListGlobalTables(engine));
        serve("DescribeGlobalTableSettings", DescribeGlobalTableSettingsInput.class, new DescribeGlobalTableSettings(engine));
        serve("UpdateGlobalTableSettings", UpdateGlobalTableSettingsInput.class, new UpdateGlobalTableSettings(engine));
        serve("CreateBackup", CreateBackupInput.class, new CreateBackup(engine));
        serve("DescribeBackup", DescribeBackupInput.class, new DescribeBackup(engine));
        serve("ListBackups", ListBackupsInput.class, new ListBackups(engine));
        serve("DeleteBackup", DeleteBackupInput.class, new DeleteBackup(engine));
        serve("RestoreTableFromBackup", RestoreTableFromBackupInput.class, new RestoreTableFromBackup(engine));
        serve("UpdateContinuousBackups", UpdateContinuousBackupsInput.class, new UpdateContinuousBackups(engine));
        serve("DescribeContinuousBackups", DescribeContinuousBackupsInput.class, new DescribeContinuousBackups(engine));
        serve("RestoreTableToPointInTime", RestoreTableToPointInTimeInput.class, new RestoreTableToPointInTime(engine));
        serve("ExportTableToPointInTime", ExportTableToPointInTimeInput.class, new ExportTableToPointInTime(engine, transfers));
        serve("DescribeExport", DescribeExportInput.class, new DescribeExport(engine, transfers));
        serve("ListExports", ListExportsInput.class, new ListExports(engine, transfers));
        serve("ImportTable", ImportTableInput.class, new ImportTable(engine, transfers));
        serve("DescribeImport", DescribeImportInput.class, new DescribeImport(engine, transfers));
        serve("ListImports", ListImportsInput.class, new ListImports(engine, transfers));
        serve("UpdateContributorInsights", UpdateContributorInsightsInput.class, new UpdateContributorInsights(engine));
        serve("DescribeContributorInsights", DescribeContributorInsightsInput.class, new DescribeContributorInsights(engine));
        serve("ListContributorInsights", ListContributorInsightsInput.class, new ListContributorInsights(engine));
        // DynamoDB Streams (X-Amz-Target DynamoDBStreams_20120810.*), on the same endpoint.
        serve("ListStreams", ListStreamsInput.class, new ListStreams(engine));
        serve("DescribeStream", DescribeStreamInput.class, new DescribeStream(engine));
        serve("GetShardIterator", GetShardIteratorInput.class, new GetShardIterator(engine));
        serve("GetRecords", GetRecordsInput.class, new GetRecords(engine));
    }

    private <I extends ModelStructure> void serve(String name, Class<I> input, Action<I> action) {
        actions.put(name, new Served<>(input, action));
    }

    /** The names of the operations served, in alphabetical order. */
    public Set<String> names() {
        return Collections.unmodifiableSet(new TreeSet<>(actions.keySet()));
    }

    /** True when Stator serves the operation of that name. */
    public boolean serves(String name) {
        return actions.containsKey(name);
    }

    /**
     * Runs the named action (which must be served) on its request, read into its input record,
     * for the caller {@code access} authorizes.
     *
     * <p>Every action asks the authorizer before it touches data ({@link Permissions}); with
     * --policies, an action that finished without asking anything is a fault of the action, and
     * its answer is not sent (the caller gets InternalServerError, the log says which action).
     * The authorization matrix test runs every action with policies, so such a fault is found by
     * the tests, not by a caller reading what it may not.
     */
    public void execute(String name, ModelStructure request, Authorizer access, ResponseBody response)
            throws IOException {
        if (!access.enforced()) {
            actions.get(name).execute(request, access, response);
            return;
        }
        Asked asked = new Asked(access);
        actions.get(name).execute(request, asked, response);
        if (!asked.any) throw new IllegalStateException(name + " answered without authorizing its caller");
    }

    /** An enforced authorizer that notes whether it was asked. */
    private static final class Asked implements Authorizer {
        private final Authorizer access;
        private boolean any;

        Asked(Authorizer access) {
            this.access = access;
        }

        @Override
        public boolean enforced() { return true; }

        @Override
        public void authorize(AccessRequest request, String resourcePolicy) {
            any = true;
            access.authorize(request, resourcePolicy);
        }

        @Override
        public void checkKeepsPolicyAccess(Policy newPolicy, String resourceArn) {
            access.checkKeepsPolicyAccess(newPolicy, resourceArn);
        }

        @Override
        public void nothingToAuthorize() {
            any = true;
        }
    }
}

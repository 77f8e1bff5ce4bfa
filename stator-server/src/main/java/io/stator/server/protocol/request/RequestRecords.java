// Generated from DynamoDB's service model by RequestRecordsGenerator: do not edit.
// To regenerate, run RequestRecordsTest with -Dstator.regenerate=true (docs/architecture.md).
package io.stator.server.protocol.request;

import java.util.List;
import java.util.function.Function;

/**
 * Binds each structure shape of the served operations' inputs to its record: the request
 * reader builds a structure's record from its members' values, in the model's order.
 */
public final class RequestRecords {

    private RequestRecords() {}

    /**
     * The constructor of the shape's record, or null when none was generated (an operation
     * Stator does not serve). Refuses to start when the model's members are not the record's.
     */
    public static Function<Object[], ModelStructure> constructor(String shape, List<String> members) {
        return switch (shape) {
            case "AttributeDefinition" -> bound(members, AttributeDefinition.MEMBERS, AttributeDefinition::of);
            case "AttributeValueUpdate" -> bound(members, AttributeValueUpdate.MEMBERS, AttributeValueUpdate::of);
            case "AutoScalingPolicyUpdate" ->
                    bound(members, AutoScalingPolicyUpdate.MEMBERS, AutoScalingPolicyUpdate::of);
            case "AutoScalingSettingsUpdate" ->
                    bound(members, AutoScalingSettingsUpdate.MEMBERS, AutoScalingSettingsUpdate::of);
            case "AutoScalingTargetTrackingScalingPolicyConfigurationUpdate" ->
                    bound(members, AutoScalingTargetTrackingScalingPolicyConfigurationUpdate.MEMBERS, AutoScalingTargetTrackingScalingPolicyConfigurationUpdate::of);
            case "BatchExecuteStatementInput" ->
                    bound(members, BatchExecuteStatementInput.MEMBERS, BatchExecuteStatementInput::of);
            case "BatchGetItemInput" -> bound(members, BatchGetItemInput.MEMBERS, BatchGetItemInput::of);
            case "BatchStatementRequest" -> bound(members, BatchStatementRequest.MEMBERS, BatchStatementRequest::of);
            case "BatchWriteItemInput" -> bound(members, BatchWriteItemInput.MEMBERS, BatchWriteItemInput::of);
            case "Condition" -> bound(members, Condition.MEMBERS, Condition::of);
            case "ConditionCheck" -> bound(members, ConditionCheck.MEMBERS, ConditionCheck::of);
            case "CreateBackupInput" -> bound(members, CreateBackupInput.MEMBERS, CreateBackupInput::of);
            case "CreateGlobalSecondaryIndexAction" ->
                    bound(members, CreateGlobalSecondaryIndexAction.MEMBERS, CreateGlobalSecondaryIndexAction::of);
            case "CreateGlobalTableInput" -> bound(members, CreateGlobalTableInput.MEMBERS, CreateGlobalTableInput::of);
            case "CreateGlobalTableWitnessGroupMemberAction" ->
                    bound(members, CreateGlobalTableWitnessGroupMemberAction.MEMBERS, CreateGlobalTableWitnessGroupMemberAction::of);
            case "CreateReplicaAction" -> bound(members, CreateReplicaAction.MEMBERS, CreateReplicaAction::of);
            case "CreateReplicationGroupMemberAction" ->
                    bound(members, CreateReplicationGroupMemberAction.MEMBERS, CreateReplicationGroupMemberAction::of);
            case "CreateTableInput" -> bound(members, CreateTableInput.MEMBERS, CreateTableInput::of);
            case "CreateVectorIndexAction" ->
                    bound(members, CreateVectorIndexAction.MEMBERS, CreateVectorIndexAction::of);
            case "CsvOptions" -> bound(members, CsvOptions.MEMBERS, CsvOptions::of);
            case "Delete" -> bound(members, Delete.MEMBERS, Delete::of);
            case "DeleteBackupInput" -> bound(members, DeleteBackupInput.MEMBERS, DeleteBackupInput::of);
            case "DeleteGlobalSecondaryIndexAction" ->
                    bound(members, DeleteGlobalSecondaryIndexAction.MEMBERS, DeleteGlobalSecondaryIndexAction::of);
            case "DeleteGlobalTableWitnessGroupMemberAction" ->
                    bound(members, DeleteGlobalTableWitnessGroupMemberAction.MEMBERS, DeleteGlobalTableWitnessGroupMemberAction::of);
            case "DeleteItemInput" -> bound(members, DeleteItemInput.MEMBERS, DeleteItemInput::of);
            case "DeleteReplicaAction" -> bound(members, DeleteReplicaAction.MEMBERS, DeleteReplicaAction::of);
            case "DeleteReplicationGroupMemberAction" ->
                    bound(members, DeleteReplicationGroupMemberAction.MEMBERS, DeleteReplicationGroupMemberAction::of);
            case "DeleteRequest" -> bound(members, DeleteRequest.MEMBERS, DeleteRequest::of);
            case "DeleteResourcePolicyInput" ->
                    bound(members, DeleteResourcePolicyInput.MEMBERS, DeleteResourcePolicyInput::of);
            case "DeleteTableInput" -> bound(members, DeleteTableInput.MEMBERS, DeleteTableInput::of);
            case "DeleteVectorIndexAction" ->
                    bound(members, DeleteVectorIndexAction.MEMBERS, DeleteVectorIndexAction::of);
            case "DescribeBackupInput" -> bound(members, DescribeBackupInput.MEMBERS, DescribeBackupInput::of);
            case "DescribeContinuousBackupsInput" ->
                    bound(members, DescribeContinuousBackupsInput.MEMBERS, DescribeContinuousBackupsInput::of);
            case "DescribeContributorInsightsInput" ->
                    bound(members, DescribeContributorInsightsInput.MEMBERS, DescribeContributorInsightsInput::of);
            case "DescribeEndpointsRequest" ->
                    bound(members, DescribeEndpointsRequest.MEMBERS, DescribeEndpointsRequest::of);
            case "DescribeExportInput" -> bound(members, DescribeExportInput.MEMBERS, DescribeExportInput::of);
            case "DescribeGlobalTableInput" ->
                    bound(members, DescribeGlobalTableInput.MEMBERS, DescribeGlobalTableInput::of);
            case "DescribeGlobalTableSettingsInput" ->
                    bound(members, DescribeGlobalTableSettingsInput.MEMBERS, DescribeGlobalTableSettingsInput::of);
            case "DescribeImportInput" -> bound(members, DescribeImportInput.MEMBERS, DescribeImportInput::of);
            case "DescribeKinesisStreamingDestinationInput" ->
                    bound(members, DescribeKinesisStreamingDestinationInput.MEMBERS, DescribeKinesisStreamingDestinationInput::of);
            case "DescribeLimitsInput" -> bound(members, DescribeLimitsInput.MEMBERS, DescribeLimitsInput::of);
            case "DescribeStreamInput" -> bound(members, DescribeStreamInput.MEMBERS, DescribeStreamInput::of);
            case "DescribeTableInput" -> bound(members, DescribeTableInput.MEMBERS, DescribeTableInput::of);
            case "DescribeTimeToLiveInput" ->
                    bound(members, DescribeTimeToLiveInput.MEMBERS, DescribeTimeToLiveInput::of);
            case "EnableKinesisStreamingConfiguration" ->
                    bound(members, EnableKinesisStreamingConfiguration.MEMBERS, EnableKinesisStreamingConfiguration::of);
            case "ExecuteStatementInput" -> bound(members, ExecuteStatementInput.MEMBERS, ExecuteStatementInput::of);
            case "ExecuteTransactionInput" ->
                    bound(members, ExecuteTransactionInput.MEMBERS, ExecuteTransactionInput::of);
            case "ExpectedAttributeValue" -> bound(members, ExpectedAttributeValue.MEMBERS, ExpectedAttributeValue::of);
            case "ExportTableToPointInTimeInput" ->
                    bound(members, ExportTableToPointInTimeInput.MEMBERS, ExportTableToPointInTimeInput::of);
            case "Get" -> bound(members, Get.MEMBERS, Get::of);
            case "GetItemInput" -> bound(members, GetItemInput.MEMBERS, GetItemInput::of);
            case "GetRecordsInput" -> bound(members, GetRecordsInput.MEMBERS, GetRecordsInput::of);
            case "GetResourcePolicyInput" -> bound(members, GetResourcePolicyInput.MEMBERS, GetResourcePolicyInput::of);
            case "GetShardIteratorInput" -> bound(members, GetShardIteratorInput.MEMBERS, GetShardIteratorInput::of);
            case "GlobalSecondaryIndex" -> bound(members, GlobalSecondaryIndex.MEMBERS, GlobalSecondaryIndex::of);
            case "GlobalSecondaryIndexUpdate" ->
                    bound(members, GlobalSecondaryIndexUpdate.MEMBERS, GlobalSecondaryIndexUpdate::of);
            case "GlobalTableGlobalSecondaryIndexSettingsUpdate" ->
                    bound(members, GlobalTableGlobalSecondaryIndexSettingsUpdate.MEMBERS, GlobalTableGlobalSecondaryIndexSettingsUpdate::of);
            case "GlobalTableWitnessGroupUpdate" ->
                    bound(members, GlobalTableWitnessGroupUpdate.MEMBERS, GlobalTableWitnessGroupUpdate::of);
            case "ImportTableInput" -> bound(members, ImportTableInput.MEMBERS, ImportTableInput::of);
            case "IncrementalExportSpecification" ->
                    bound(members, IncrementalExportSpecification.MEMBERS, IncrementalExportSpecification::of);
            case "InputFormatOptions" -> bound(members, InputFormatOptions.MEMBERS, InputFormatOptions::of);
            case "KeySchemaElement" -> bound(members, KeySchemaElement.MEMBERS, KeySchemaElement::of);
            case "KeysAndAttributes" -> bound(members, KeysAndAttributes.MEMBERS, KeysAndAttributes::of);
            case "KinesisStreamingDestinationInput" ->
                    bound(members, KinesisStreamingDestinationInput.MEMBERS, KinesisStreamingDestinationInput::of);
            case "ListBackupsInput" -> bound(members, ListBackupsInput.MEMBERS, ListBackupsInput::of);
            case "ListContributorInsightsInput" ->
                    bound(members, ListContributorInsightsInput.MEMBERS, ListContributorInsightsInput::of);
            case "ListExportsInput" -> bound(members, ListExportsInput.MEMBERS, ListExportsInput::of);
            case "ListGlobalTablesInput" -> bound(members, ListGlobalTablesInput.MEMBERS, ListGlobalTablesInput::of);
            case "ListImportsInput" -> bound(members, ListImportsInput.MEMBERS, ListImportsInput::of);
            case "ListStreamsInput" -> bound(members, ListStreamsInput.MEMBERS, ListStreamsInput::of);
            case "ListTablesInput" -> bound(members, ListTablesInput.MEMBERS, ListTablesInput::of);
            case "ListTagsOfResourceInput" ->
                    bound(members, ListTagsOfResourceInput.MEMBERS, ListTagsOfResourceInput::of);
            case "LocalSecondaryIndex" -> bound(members, LocalSecondaryIndex.MEMBERS, LocalSecondaryIndex::of);
            case "OnDemandThroughput" -> bound(members, OnDemandThroughput.MEMBERS, OnDemandThroughput::of);
            case "OnDemandThroughputOverride" ->
                    bound(members, OnDemandThroughputOverride.MEMBERS, OnDemandThroughputOverride::of);
            case "ParameterizedStatement" -> bound(members, ParameterizedStatement.MEMBERS, ParameterizedStatement::of);
            case "PointInTimeRecoverySpecification" ->
                    bound(members, PointInTimeRecoverySpecification.MEMBERS, PointInTimeRecoverySpecification::of);
            case "Projection" -> bound(members, Projection.MEMBERS, Projection::of);
            case "ProvisionedThroughput" -> bound(members, ProvisionedThroughput.MEMBERS, ProvisionedThroughput::of);
            case "ProvisionedThroughputOverride" ->
                    bound(members, ProvisionedThroughputOverride.MEMBERS, ProvisionedThroughputOverride::of);
            case "Put" -> bound(members, Put.MEMBERS, Put::of);
            case "PutItemInput" -> bound(members, PutItemInput.MEMBERS, PutItemInput::of);
            case "PutRequest" -> bound(members, PutRequest.MEMBERS, PutRequest::of);
            case "PutResourcePolicyInput" -> bound(members, PutResourcePolicyInput.MEMBERS, PutResourcePolicyInput::of);
            case "QueryInput" -> bound(members, QueryInput.MEMBERS, QueryInput::of);
            case "Replica" -> bound(members, Replica.MEMBERS, Replica::of);
            case "ReplicaGlobalSecondaryIndex" ->
                    bound(members, ReplicaGlobalSecondaryIndex.MEMBERS, ReplicaGlobalSecondaryIndex::of);
            case "ReplicaGlobalSecondaryIndexSettingsUpdate" ->
                    bound(members, ReplicaGlobalSecondaryIndexSettingsUpdate.MEMBERS, ReplicaGlobalSecondaryIndexSettingsUpdate::of);
            case "ReplicaSettingsUpdate" -> bound(members, ReplicaSettingsUpdate.MEMBERS, ReplicaSettingsUpdate::of);
            case "ReplicaUpdate" -> bound(members, ReplicaUpdate.MEMBERS, ReplicaUpdate::of);
            case "ReplicationGroupUpdate" -> bound(members, ReplicationGroupUpdate.MEMBERS, ReplicationGroupUpdate::of);
            case "RestoreTableFromBackupInput" ->
                    bound(members, RestoreTableFromBackupInput.MEMBERS, RestoreTableFromBackupInput::of);
            case "RestoreTableToPointInTimeInput" ->
                    bound(members, RestoreTableToPointInTimeInput.MEMBERS, RestoreTableToPointInTimeInput::of);
            case "S3BucketSource" -> bound(members, S3BucketSource.MEMBERS, S3BucketSource::of);
            case "SSESpecification" -> bound(members, SSESpecification.MEMBERS, SSESpecification::of);
            case "ScanInput" -> bound(members, ScanInput.MEMBERS, ScanInput::of);
            case "SearchSchemaElement" -> bound(members, SearchSchemaElement.MEMBERS, SearchSchemaElement::of);
            case "SearchVectorsInput" -> bound(members, SearchVectorsInput.MEMBERS, SearchVectorsInput::of);
            case "ShardFilter" -> bound(members, ShardFilter.MEMBERS, ShardFilter::of);
            case "StreamSpecification" -> bound(members, StreamSpecification.MEMBERS, StreamSpecification::of);
            case "TableCreationParameters" ->
                    bound(members, TableCreationParameters.MEMBERS, TableCreationParameters::of);
            case "Tag" -> bound(members, Tag.MEMBERS, Tag::of);
            case "TagResourceInput" -> bound(members, TagResourceInput.MEMBERS, TagResourceInput::of);
            case "TimeToLiveSpecification" ->
                    bound(members, TimeToLiveSpecification.MEMBERS, TimeToLiveSpecification::of);
            case "TransactGetItem" -> bound(members, TransactGetItem.MEMBERS, TransactGetItem::of);
            case "TransactGetItemsInput" -> bound(members, TransactGetItemsInput.MEMBERS, TransactGetItemsInput::of);
            case "TransactWriteItem" -> bound(members, TransactWriteItem.MEMBERS, TransactWriteItem::of);
            case "TransactWriteItemsInput" ->
                    bound(members, TransactWriteItemsInput.MEMBERS, TransactWriteItemsInput::of);
            case "UntagResourceInput" -> bound(members, UntagResourceInput.MEMBERS, UntagResourceInput::of);
            case "Update" -> bound(members, Update.MEMBERS, Update::of);
            case "UpdateContinuousBackupsInput" ->
                    bound(members, UpdateContinuousBackupsInput.MEMBERS, UpdateContinuousBackupsInput::of);
            case "UpdateContributorInsightsInput" ->
                    bound(members, UpdateContributorInsightsInput.MEMBERS, UpdateContributorInsightsInput::of);
            case "UpdateGlobalSecondaryIndexAction" ->
                    bound(members, UpdateGlobalSecondaryIndexAction.MEMBERS, UpdateGlobalSecondaryIndexAction::of);
            case "UpdateGlobalTableInput" -> bound(members, UpdateGlobalTableInput.MEMBERS, UpdateGlobalTableInput::of);
            case "UpdateGlobalTableSettingsInput" ->
                    bound(members, UpdateGlobalTableSettingsInput.MEMBERS, UpdateGlobalTableSettingsInput::of);
            case "UpdateItemInput" -> bound(members, UpdateItemInput.MEMBERS, UpdateItemInput::of);
            case "UpdateKinesisStreamingConfiguration" ->
                    bound(members, UpdateKinesisStreamingConfiguration.MEMBERS, UpdateKinesisStreamingConfiguration::of);
            case "UpdateKinesisStreamingDestinationInput" ->
                    bound(members, UpdateKinesisStreamingDestinationInput.MEMBERS, UpdateKinesisStreamingDestinationInput::of);
            case "UpdateReplicationGroupMemberAction" ->
                    bound(members, UpdateReplicationGroupMemberAction.MEMBERS, UpdateReplicationGroupMemberAction::of);
            case "UpdateTableInput" -> bound(members, UpdateTableInput.MEMBERS, UpdateTableInput::of);
            case "UpdateTimeToLiveInput" -> bound(members, UpdateTimeToLiveInput.MEMBERS, UpdateTimeToLiveInput::of);
            case "VectorAttributeDefinition" ->
                    bound(members, VectorAttributeDefinition.MEMBERS, VectorAttributeDefinition::of);
            case "VectorIndex" -> bound(members, VectorIndex.MEMBERS, VectorIndex::of);
            case "VectorIndexUpdate" -> bound(members, VectorIndexUpdate.MEMBERS, VectorIndexUpdate::of);
            case "WarmThroughput" -> bound(members, WarmThroughput.MEMBERS, WarmThroughput::of);
            case "WriteRequest" -> bound(members, WriteRequest.MEMBERS, WriteRequest::of);
            default -> null;
        };
    }

    /**
     * The reader of an enum shape's generated Java enum (its {@code ofWire}), or null when
     * the shape's members are Strings.
     */
    public static Function<String, Object> enumReader(String shape) {
        return switch (shape) {
            case "ConditionalOperator" -> ConditionalOperator::ofWire;
            case "ReturnConsumedCapacity" -> ReturnConsumedCapacity::ofWire;
            case "ReturnItemCollectionMetrics" -> ReturnItemCollectionMetrics::ofWire;
            case "ReturnValue" -> ReturnValue::ofWire;
            case "ReturnValuesOnConditionCheckFailure" -> ReturnValuesOnConditionCheckFailure::ofWire;
            case "Select" -> Select::ofWire;
            default -> null;
        };
    }

    private static Function<Object[], ModelStructure> bound(List<String> members, List<String> recordMembers,
                                                           Function<Object[], ModelStructure> constructor) {
        if (!members.equals(recordMembers)) {
            throw new IllegalStateException("the service model's members " + members + " are not the "
                    + "request record's " + recordMembers + ": regenerate the request records");
        }
        return constructor;
    }
}

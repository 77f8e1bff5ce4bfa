package io.stator.engine.table;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.engine.table.TableArns.Arn;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicReference;

/**
 * DynamoDB's resource-based policies on tables (PutResourcePolicy, GetResourcePolicy,
 * DeleteResourcePolicy): the ResourceArn's rules, the RevisionId and ExpectedRevisionId rules,
 * and their errors. The document itself is checked and put in its canonical form by the front
 * end, which owns the policy language; here it is text.
 *
 * <p>What DynamoDB does, as recorded against it (moto's AWS-verified tests; ack-api-quirks
 * findings DDB-TABLE-205/207/209/212, 2026):
 * <ul>
 *   <li>the RevisionId is the epoch milliseconds of the change, and increases with every change;</li>
 *   <li>putting a document equal to the current one (in canonical form) changes nothing and
 *       answers the current RevisionId;</li>
 *   <li>ExpectedRevisionId must be the current RevisionId, or NO_POLICY when the table has none;
 *       otherwise PolicyNotFoundException, for Put and Delete alike;</li>
 *   <li>GetResourcePolicy of a table without a policy is PolicyNotFoundException; deleting it is
 *       no error and answers no RevisionId; deleting one answers the removed policy's RevisionId.</li>
 * </ul>
 * Not modelled: DynamoDB applies a policy change eventually (reads see it after a second or two,
 * enforcement up to minutes later) and refuses another change of the same table's policy for
 * 15 seconds (ResourceInUseException, then ThrottlingException). Stator applies every change at
 * once and has no such window, which no correct client depends on.
 */
public final class ResourcePolicies {

    /** The ExpectedRevisionId that asks for the table to have no policy yet. */
    public static final String NO_POLICY = "NO_POLICY";

    private static final String NOT_FOUND = "Resource-based policy not found for the provided ResourceArn: ";
    private static final String INVALID = "One or more parameter values were invalid: ";

    private final Catalog catalog;
    private final Clock clock;

    public ResourcePolicies(Catalog catalog, Clock clock) {
        this.catalog = catalog;
        this.clock = clock;
    }

    /** The table a ResourceArn names, or DynamoDB's error for it. */
    public TableDefinition table(String resourceArn) {
        return catalog.require(tableName(resourceArn, catalog.arns()), Catalog.NotFoundMessage.WITH_TABLE_NAME);
    }

    /**
     * The table's name in a ResourceArn, with DynamoDB's errors for ARNs of no table (not an ARN,
     * a backup's, an index's, another region's or partition's, another account's). A stream's ARN
     * names a stream policy, which Stator does not serve yet.
     */
    public static String tableName(String resourceArn, TableArns arns) {
        if (!resourceArn.startsWith("arn:")) {
            throw DynamoDbException.validation(INVALID + "ARNs must start with 'arn:': " + resourceArn);
        }
        Arn parts = Arn.parse(resourceArn);
        String[] path = parts == null ? new String[0] : parts.resource().split("/", -1);
        boolean tableOrBelow = parts != null && parts.service().equals("dynamodb") && path.length >= 2
                && path[0].equals("table") && !path[1].isEmpty()
                && (path.length == 2 || path.length == 4 && (path[2].equals("index") || path[2].equals("stream")));
        if (!tableOrBelow) {
            throw DynamoDbException.validation(INVALID + "Provided Arn is not a DynamoDB resource arn: " + resourceArn);
        }
        if (path.length == 4 && path[2].equals("index")) {
            throw DynamoDbException.validation(INVALID + "Invalid resource arn provided, only table or stream is "
                    + "accepted. Provided resource arn: " + resourceArn);
        }
        if (!parts.partition().equals("aws") || !parts.region().equals(arns.region())) {
            throw DynamoDbException.validation(INVALID + "Invalid resource Arn: " + resourceArn);
        }
        if (!parts.accountId().equals(arns.accountId())) {
            throw DynamoDbException.validation(
                    "This action is only supported by accounts that match the resource owner\u2019s account.");
        }
        if (path.length == 4) {
            throw DynamoDbException.validation("Resource-based policies on streams are not supported by Stator yet");
        }
        return path[1];
    }

    /** GetResourcePolicy: the table's policy, or PolicyNotFoundException. */
    public ResourcePolicy get(String resourceArn) {
        ResourcePolicy policy = table(resourceArn).resourcePolicy();
        if (policy == null) throw policyNotFound(NOT_FOUND + resourceArn);
        return policy;
    }

    /**
     * PutResourcePolicy: sets the table's policy ({@code document} checked and canonical) and
     * returns it with its RevisionId; the current one when the document is the same.
     */
    public ResourcePolicy put(String resourceArn, String document, String expectedRevisionId) {
        String name = table(resourceArn).name();
        AtomicReference<ResourcePolicy> result = new AtomicReference<>();
        catalog.update(name, current -> {
            ResourcePolicy existing = current.resourcePolicy();
            checkExpected(name, existing, expectedRevisionId, true);
            if (existing != null && existing.document().equals(document)) {
                result.set(existing);
                return current;
            }
            ResourcePolicy next = new ResourcePolicy(document, revisionId(clock.millis(), existing));
            result.set(next);
            TableDefinition.Builder b = current.toBuilder();
            b.resourcePolicy = next;
            return b.build();
        });
        return result.get();
    }

    /** DeleteResourcePolicy: the removed policy's RevisionId, or null when the table had none. */
    public String delete(String resourceArn, String expectedRevisionId) {
        String name = table(resourceArn).name();
        AtomicReference<String> removed = new AtomicReference<>();
        catalog.update(name, current -> {
            ResourcePolicy existing = current.resourcePolicy();
            checkExpected(name, existing, expectedRevisionId, false);
            if (existing == null) return current;
            removed.set(existing.revisionId());
            TableDefinition.Builder b = current.toBuilder();
            b.resourcePolicy = null;
            return b.build();
        });
        return removed.get();
    }

    private static void checkExpected(String table, ResourcePolicy existing, String expected, boolean put) {
        if (expected == null) return;
        if (put && expected.equals(NO_POLICY)) {
            if (existing != null) {
                throw policyNotFound(NOT_FOUND + "Requested policy update expecting none to be present for table "
                        + table + ", but a policy exists with revision id " + existing.revisionId() + ".");
            }
            return;
        }
        if (existing == null) {
            // DynamoDB's text is recorded only up to "but table T has no associated" (ack-api-quirks
            // DDB-TABLE-205 cut it there); the end of it is Stator's.
            throw policyNotFound(NOT_FOUND + "Requested update for policy with revision id " + expected + ", but table "
                    + table + " has no associated policy.");
        }
        if (!existing.revisionId().equals(expected)) {
            throw policyNotFound(NOT_FOUND + "Requested update for policy with revision id " + expected
                    + ", but the policy associated to target table " + table + " has revision id "
                    + existing.revisionId() + ".");
        }
    }

    /** The RevisionId of a change at {@code millis}: later than the one it replaces, whatever the clock says. */
    static String revisionId(long millis, ResourcePolicy replaced) {
        long previous = replaced == null ? 0 : Long.parseLong(replaced.revisionId());
        return Long.toString(Math.max(millis, previous + 1));
    }

    private static DynamoDbException policyNotFound(String message) {
        return new DynamoDbException(ErrorType.POLICY_NOT_FOUND, message);
    }
}

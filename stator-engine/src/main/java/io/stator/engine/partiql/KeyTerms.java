package io.stator.engine.partiql;

import io.stator.core.expression.Condition;
import io.stator.core.expression.Operand;
import io.stator.core.model.AttributeValue;
import java.util.ArrayList;
import java.util.List;

/**
 * What a SELECT's WHERE says about the key it reads by: a Query when its AND terms fix the
 * partition key (an equality on each partition key attribute, or for a single one an IN or ORed
 * equalities listing its partitions, {@code partitionIn}), with a sort key condition among the
 * terms if there is one; else a Scan of the whole table or index. DynamoDB's SELECT reference:
 * "To ensure that a SELECT statement does not result in a full table scan, the WHERE clause
 * condition must specify a partition key. Use the equality or IN operator." The authorization
 * (its dynamodb:FullTableScan and dynamodb:LeadingKeys) and the read are planned by this one rule.
 *
 * @param keyTerms        the terms a Query's key condition takes (with {@code partitionIn}'s term)
 * @param partitionIn     the partitions an IN (or ORed equalities) lists, or null
 * @param partitionInTerm the term {@code partitionIn} came from, or null
 */
public record KeyTerms(List<Condition> keyTerms, Condition.In partitionIn, Condition partitionInTerm, boolean query) {

    /** The key terms of a WHERE clause with these AND terms, on a target with these keys. */
    public static KeyTerms of(List<Condition> terms, KeyAttributes keys) {
        List<Condition> keyTerms = new ArrayList<>();
        for (String attribute : keys.partitionKey()) {
            for (Condition t : terms) {
                if (WhereTerms.equality(t, attribute) != null) {
                    keyTerms.add(t);
                    break;
                }
            }
        }
        boolean query = keyTerms.size() == keys.partitionKey().size();
        Condition.In partitionIn = null;
        Condition partitionInTerm = null;
        if (!query && keys.partitionKey().size() == 1) {
            for (Condition t : terms) {
                Condition.In in = WhereTerms.partitionIn(t, keys.partitionKey().get(0));
                if (in != null) {
                    partitionIn = in;
                    partitionInTerm = t;
                    keyTerms.add(t);
                    query = true;
                    break;
                }
            }
        }
        if (query && keys.sortKey().size() == 1) {
            for (Condition t : terms) {
                if (!keyTerms.contains(t) && WhereTerms.sortKeyCondition(t, keys.sortKey().get(0))) {
                    keyTerms.add(t);
                    break;
                }
            }
        }
        return new KeyTerms(keyTerms, partitionIn, partitionInTerm, query);
    }

    /**
     * The values of the (first) partition key attribute the statement reads, distinct, in the
     * order written, as dynamodb:LeadingKeys gives them and as an IN list's partitions are read;
     * none for a Scan.
     */
    public List<AttributeValue> partitionKeyValues(KeyAttributes keys) {
        List<AttributeValue> values = new ArrayList<>();
        if (!query) return values;
        if (partitionIn != null) {
            for (Operand candidate : partitionIn.candidates()) {
                AttributeValue v = ((Operand.Constant) candidate).value();
                if (!values.contains(v)) values.add(v);
            }
            return values;
        }
        for (Condition t : keyTerms) {
            AttributeValue v = WhereTerms.equality(t, keys.partitionKey().get(0));
            if (v != null) {
                values.add(v);
                break;
            }
        }
        return values;
    }
}

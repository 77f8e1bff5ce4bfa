package io.stator.server.api;

import static io.stator.server.protocol.request.ReturnValuesOnConditionCheckFailure.ALL_OLD;

import io.stator.core.error.DynamoDbException;
import io.stator.core.error.ErrorType;
import io.stator.core.model.AttributeValue;
import io.stator.core.partiql.PartiqlParser;
import io.stator.core.partiql.Statement;
import io.stator.engine.Engine;
import io.stator.engine.Items;
import io.stator.engine.advisor.Operation;
import io.stator.engine.item.KeySchemaMismatchException;
import io.stator.engine.item.PrimaryKeys;
import io.stator.engine.partiql.IncompleteKeyException;
import io.stator.engine.partiql.ItemSelect;
import io.stator.engine.partiql.PartiqlTransactions;
import io.stator.engine.partiql.UnfitStatementException;
import io.stator.engine.read.Page;
import io.stator.engine.write.ItemWrite;
import io.stator.engine.write.TransactionCanceledException;
import io.stator.engine.write.TransactionItems;
import io.stator.engine.write.Transactions.ClientToken;
import io.stator.engine.write.Transactions.WriteOutcome;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.api.checks.KeyMismatches;
import io.stator.server.api.json.PerTableResults;
import io.stator.server.protocol.RequestDigest;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ExecuteTransactionInput;
import io.stator.server.protocol.request.ParameterizedStatement;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * ExecuteTransaction: up to 100 PartiQL statements, all reads or all writes, run as
 * TransactGetItems or TransactWriteItems would run them ({@code engine/partiql/PartiqlTransactions}).
 * A statement that can never run in a transaction, or does not parse, fails the request as
 * "Validation failed in TransactStatements[i]: ..."; a WHERE that misses part of the key, or a key
 * of the wrong type, is that statement's ValidationError cancellation reason, as in TransactWriteItems.
 */
final class ExecuteTransaction implements Action<ExecuteTransactionInput> {

    private static final String STATEMENT_ERROR = "Validation failed in TransactStatements[%d]: %s";

    /** dynamodb:EnclosingOperation of its statements ("IAM security policies with PartiQL for DynamoDB"). */
    private static final String ENCLOSING_OPERATION = "ExecuteTransaction";

    private final Engine engine;

    ExecuteTransaction(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(ExecuteTransactionInput request, Authorizer access, ResponseBody response) throws IOException {
        List<ParameterizedStatement> members = request.transactStatements();
        List<Statement> statements = new ArrayList<>(members.size());
        for (int i = 0; i < members.size(); i++) statements.add(parse(i, members.get(i)));
        if (PartiqlTransactions.reads(statements)) read(statements, request, access, response);
        else write(statements, request, access, response);
    }

    /** One statement, parsed and checked for what a transaction cannot hold. */
    private static Statement parse(int i, ParameterizedStatement member) {
        try {
            List<AttributeValue> parameters = member.parameters() == null ? null : member.parameters().validated();
            Statement s = PartiqlParser.parse(member.statement(), parameters);
            PartiqlTransactions.checkFits(s);
            return s;
        } catch (DynamoDbException e) {
            if (e.type() != ErrorType.VALIDATION) throw e;
            throw DynamoDbException.validation(String.format(STATEMENT_ERROR, i, e.getMessage()));
        }
    }

    private void read(List<Statement> statements, ExecuteTransactionInput request, Authorizer access,
                      ResponseBody response) throws IOException {
        int n = statements.size();
        List<Items.Get> gets = new ArrayList<>(n);
        List<ItemSelect> selects = new ArrayList<>(n);
        TransactionItems named = new TransactionItems();
        KeyMismatches mismatches = new KeyMismatches();
        for (int i = 0; i < n; i++) {
            Statement.Select s = (Statement.Select) statements.get(i);
            if (access.enforced()) Permissions.statement(access, engine, s, ENCLOSING_OPERATION);
            ItemSelect select = null;
            try {
                select = ItemSelect.of(engine, s);
                PrimaryKeys.checkKey(select.table().keySchema(), select.key());
            } catch (IncompleteKeyException | KeySchemaMismatchException e) {
                mismatches.record(i, e);
            }
            if (select != null) named.name(select.table(), select.key());
            selects.add(select);
            if (select != null) gets.add(new Items.Get(select.table(), select.key(), null));
        }
        named.checkDistinct();
        mismatches.throwIfAny(n);
        List<Page> results = engine.items().transactGet(Operation.EXECUTE_TRANSACTION, gets);
        List<String> tableNames = new ArrayList<>(n);
        List<Map<String, AttributeValue>> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            tableNames.add(statements.get(i).tableName());
            items.add(selects.get(i).returned(results.get(i).item()));
        }
        PerTableResults.writeTransactGet(response.json(), results, items, tableNames, request.returnConsumedCapacity());
    }

    private void write(List<Statement> statements, ExecuteTransactionInput request, Authorizer access,
                       ResponseBody response) throws IOException {
        int n = statements.size();
        List<ItemWrite> writes = new ArrayList<>(n);
        TransactionItems named = new TransactionItems();
        KeyMismatches mismatches = new KeyMismatches();
        for (int i = 0; i < n; i++) {
            Statement statement = statements.get(i);
            boolean returnOld = request.transactStatements().get(i).returnValuesOnConditionCheckFailure() == ALL_OLD;
            ItemWrite write = null;
            if (access.enforced()) Permissions.statement(access, engine, statement, ENCLOSING_OPERATION);
            try {
                write = PartiqlTransactions.write(engine, statement, returnOld);
            } catch (UnfitStatementException e) {
                throw DynamoDbException.validation(String.format(STATEMENT_ERROR, i, e.getMessage()));
            } catch (IncompleteKeyException | KeySchemaMismatchException e) {
                mismatches.record(i, e);
            }
            if (write != null) named.name(write);
            if (statement instanceof Statement.Insert s) named.carry(s.item());
            writes.add(write);
        }
        named.checkDistinct();
        named.checkPayload();
        mismatches.throwIfAny(n);
        String token = request.clientRequestToken();
        WriteOutcome outcome;
        try {
            outcome = engine.items().transactWrite(Operation.EXECUTE_TRANSACTION, writes,
                    token == null ? null : new ClientToken(token, RequestDigest.of(request, "ClientRequestToken")));
        } catch (TransactionCanceledException e) {
            throw PartiqlTransactions.duplicatesNamed(e, statements);
        }
        PerTableResults.ofTransaction(outcome, statements.stream().map(Statement::tableName).toList())
                .writeTransactionCapacity(response.json(), request.returnConsumedCapacity(), outcome.replayed());
    }
}

package io.stator.server.testing;

import io.stator.server.testing.Linearizability.ConditionalPut;
import io.stator.server.testing.Linearizability.Op;
import io.stator.server.testing.Linearizability.Operation;
import io.stator.server.testing.Linearizability.Outcome;
import io.stator.server.testing.Linearizability.Read;
import io.stator.server.testing.Linearizability.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * Records what concurrent clients did, for {@link Linearizability}: each operation's invocation
 * and return times (System.nanoTime, taken just before the request is sent and just after its answer
 * arrives) and its outcome. Thread-safe; one {@link Call} belongs to the thread that made it.
 * <pre>
 * History.Call call = history.invoke(client, new Get("k1"));
 * try { call.read(valueOf(dynamo.getItem(...))); } catch (SdkException e) { call.threw(e); }
 * </pre>
 * {@link RegisterClient} does this for registers kept as items of a table.
 */
public final class History {

    private final ConcurrentLinkedQueue<Call> calls = new ConcurrentLinkedQueue<>();

    /** Records that {@code client} invokes {@code op} now. */
    public Call invoke(int client, Op op) {
        Call call = new Call(client, op, System.nanoTime());
        calls.add(call);
        return call;
    }

    /** One operation under way; end it once with its outcome. */
    public static final class Call {
        private final int client;
        private final Op op;
        private final long invoked;
        private volatile long returned;
        private volatile Outcome outcome; // null until it returned

        private Call(int client, Op op, long invoked) {
            this.client = client;
            this.op = op;
            this.invoked = invoked;
        }

        /** A put, delete or conditional put took effect. */
        public void ok() { end(Linearizability.OK); }

        /** A get answered {@code value} (null: no item). */
        public void read(String value) { end(new Read(value)); }

        /** A conditional put's condition did not hold. */
        public void failed() { end(Linearizability.FAILED); }

        /** No answer that says whether the operation took effect. */
        public void unknown() { end(Linearizability.UNKNOWN); }

        /**
         * The outcome an error means: a conditional put's ConditionalCheckFailedException is a failed
         * condition; any other error DynamoDB answers with a 4xx changed nothing
         * (ReplicatedWriteConflictException, throttling, validation); a 5xx, a timeout or a broken
         * connection may have taken effect or not.
         */
        public void threw(Throwable error) {
            if (error instanceof ConditionalCheckFailedException && op instanceof ConditionalPut) {
                failed();
            } else if (error instanceof AwsServiceException e && e.statusCode() >= 400 && e.statusCode() < 500) {
                end(Linearizability.NO_EFFECT);
            } else {
                unknown();
            }
        }

        public void end(Outcome outcome) {
            long now = System.nanoTime();
            synchronized (this) {
                if (this.outcome != null) throw new IllegalStateException(op + " already ended with " + this.outcome);
                returned = now;
                this.outcome = outcome;
            }
        }

        /** The outcome it ended with, or null while under way. */
        public Outcome outcome() { return outcome; }

        private Operation operation() {
            Outcome o = outcome;
            // A call never ended (its thread died, or is still waiting) has an unknown outcome.
            return o == null ? new Operation(client, op, invoked, Long.MAX_VALUE, Linearizability.UNKNOWN)
                    : new Operation(client, op, invoked, returned, o);
        }
    }

    /** The operations recorded so far. */
    public List<Operation> operations() {
        List<Operation> operations = new ArrayList<>();
        for (Call c : calls) operations.add(c.operation());
        return operations;
    }

    public int size() { return calls.size(); }

    /** {@link Linearizability#check} of the operations recorded so far. */
    public Result check() {
        return Linearizability.check(operations());
    }
}

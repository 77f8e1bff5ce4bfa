package io.stator.server.api;

import io.stator.server.access.Authorizer;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ModelStructure;
import java.io.IOException;

/**
 * One DynamoDB API action, named as DynamoDB names it (the class {@code PutItem} serves
 * {@code DynamoDB_20120810.PutItem}). The request arrives as its typed record, read and checked
 * against the service model's constraints; the action makes DynamoDB's remaining checks of the
 * request, in DynamoDB's order, asks the caller's {@link Authorizer} for each thing the request
 * does (see {@link Permissions} for where), maps it to an engine operation, and writes the
 * response. It holds no DynamoDB semantics of its own: those are the engine's.
 *
 * @param <I> the operation's input record ({@code PutItemInput} for PutItem)
 */
public interface Action<I extends ModelStructure> {

    /** @param access the caller's authorization; {@link Authorizer#UNCHECKED} without --policies */
    void execute(I request, Authorizer access, ResponseBody response) throws IOException;
}

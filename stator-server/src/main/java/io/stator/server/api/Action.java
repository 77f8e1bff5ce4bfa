package io.stator.server.api;

import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.ModelStructure;
import java.io.IOException;

/**
 * One DynamoDB API action, named as DynamoDB names it (the class {@code PutItem} serves
 * {@code DynamoDB_20120810.PutItem}). The request arrives as its typed record, read and checked
 * against the service model's constraints; the action makes DynamoDB's remaining checks of the
 * request, in DynamoDB's order, maps it to an engine operation, and writes the response. It
 * holds no DynamoDB semantics of its own: those are the engine's.
 *
 * @param <I> the operation's input record ({@code PutItemInput} for PutItem)
 */
public interface Action<I extends ModelStructure> {

    void execute(I request, ResponseBody response) throws IOException;
}

package io.stator.server.api;

import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.Struct;
import java.io.IOException;

/**
 * One DynamoDB API action, named as DynamoDB names it (the class {@code PutItem} serves
 * {@code DynamoDB_20120810.PutItem}). The request arrives read and checked against the service
 * model's constraints; the action makes DynamoDB's remaining checks, in DynamoDB's order, runs
 * on the engine, and writes the response.
 */
public interface Action {

    void execute(Struct request, ResponseBody response) throws IOException;
}

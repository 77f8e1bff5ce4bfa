package io.stator.server.protocol;

import com.code_intelligence.jazzer.junit.DictionaryFile;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.stator.core.error.DynamoDbException;
import io.stator.core.testing.InputTimeLimit;
import io.stator.server.testing.FuzzedRequest;
import java.util.List;

/**
 * Fuzz test (Jazzer) of reading a request body: {@link RequestReader#parse} into the operation's
 * input record, then {@link Constraints#check}, for every operation in the service model. Any
 * body either reads and checks, or fails with DynamoDB's SerializationException or
 * ValidationException; nothing else may escape (the endpoint would answer it with a 500), and no
 * body may overflow the stack or hang.
 *
 * <p>An input is the operation's name on the first line, then the body (see
 * {@link FuzzedRequest}); the dictionary holds JSON and the model's member names.
 *
 * <p>{@code ./mvnw verify} runs each fuzz test (a class named *FuzzTest, one target each) for a
 * few seconds in its own JVM, starting from its committed corpus in
 * {@code src/test/resources/<package>/<Class>Inputs/<method>/}; {@code ./mvnw -Pfuzz test} runs
 * them for minutes each (see the fuzz profile in the parent pom). A failing input is written into
 * that corpus directory: fix the code, keep the input as a regression test.
 */
class RequestReaderFuzzTest {

    private static final List<String> OPERATIONS = FuzzedRequest.allOperations();

    @DictionaryFile(resourcePath = "/io/stator/server/dynamodb-requests.dict")
    @FuzzTest
    void bodiesReadAndCheckOrFailWithDynamoDbErrors(byte[] input) {
        InputTimeLimit.run(input, () -> readAndCheck(input));
    }

    private static void readAndCheck(byte[] input) {
        FuzzedRequest request = FuzzedRequest.of(input, OPERATIONS);
        Shape.StructureShape shape = ServiceModel.get().operation(request.operation()).input();
        try {
            Constraints.check(RequestReader.parse(request.body(), shape), shape);
        } catch (DynamoDbException expected) {
            // SerializationException or ValidationException, with DynamoDB's message.
        }
    }
}

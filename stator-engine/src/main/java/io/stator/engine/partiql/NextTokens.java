package io.stator.engine.partiql;

import io.stator.core.error.DynamoDbException;
import io.stator.core.item.ItemCodec;
import io.stator.core.model.AttributeValue;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;

/**
 * ExecuteStatement's NextToken: the page's LastEvaluatedKey in the engine's item encoding, in
 * base64, after a digest of the statement it continues: opaque to clients and tied to the
 * statement, as DynamoDB's is (it refuses a token replayed against another statement, recorded
 * by dynamodb-conformance with a token of one index read replayed against another).
 */
public final class NextTokens {

    /** How many bytes of the statement's SHA-256 a NextToken starts with. */
    private static final int TOKEN_DIGEST = 8;

    private NextTokens() {}

    public static String encode(Map<String, AttributeValue> lastEvaluatedKey, String statement) {
        byte[] key = ItemCodec.encode(lastEvaluatedKey);
        byte[] token = new byte[TOKEN_DIGEST + key.length];
        System.arraycopy(statementDigest(statement), 0, token, 0, TOKEN_DIGEST);
        System.arraycopy(key, 0, token, TOKEN_DIGEST, key.length);
        return Base64.getEncoder().encodeToString(token);
    }

    /** The start key a token gives, or null for no token. */
    public static Map<String, AttributeValue> decode(String token, String statement) {
        if (token == null) return null;
        try {
            byte[] bytes = Base64.getDecoder().decode(token);
            if (bytes.length <= TOKEN_DIGEST
                    || !Arrays.equals(bytes, 0, TOKEN_DIGEST, statementDigest(statement), 0, TOKEN_DIGEST)) {
                throw new IllegalArgumentException("NextToken of another statement");
            }
            return ItemCodec.decode(Arrays.copyOfRange(bytes, TOKEN_DIGEST, bytes.length));
        } catch (RuntimeException e) {
            throw invalid();
        }
    }

    /**
     * DynamoDB Local's wording (ValidationExceptionMessages.INVALID_NEXT_TOKEN); DynamoDB's for a
     * token of another statement is not recorded.
     */
    static DynamoDbException invalid() {
        return DynamoDbException.validation("Invalid NextToken");
    }

    private static byte[] statementDigest(String statement) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(statement.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

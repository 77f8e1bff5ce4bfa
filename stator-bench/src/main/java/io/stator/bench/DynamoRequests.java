package io.stator.bench;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Turns a DynamoDB action and its JSON body into the complete bytes of a signed HTTP/1.1
 * request, ready to be written to a socket as they are. Building and signing happen before a
 * measurement, so what is measured is the server, not the generator's string handling.
 */
final class DynamoRequests {

    private final Endpoint endpoint;
    private final SigV4Signer.Credentials credentials;
    private final SigV4Signer signer;

    DynamoRequests(Endpoint endpoint, SigV4Signer.Credentials credentials) {
        this.endpoint = endpoint;
        this.credentials = credentials;
        this.signer = new SigV4Signer(credentials, endpoint.region(), Instant.now());
    }

    /** A builder for another thread (signers are not thread-safe). */
    DynamoRequests copy() {
        return new DynamoRequests(endpoint, credentials);
    }

    Endpoint endpoint() { return endpoint; }

    byte[] build(String action, String jsonBody) {
        return build(action, jsonBody.getBytes(StandardCharsets.UTF_8));
    }

    byte[] build(String action, byte[] body) {
        String target = "DynamoDB_20120810." + action;
        String head = "POST / HTTP/1.1\r\n"
                + "Host: " + endpoint.hostHeader() + "\r\n"
                + "Content-Type: " + SigV4Signer.CONTENT_TYPE + "\r\n"
                + "X-Amz-Target: " + target + "\r\n"
                + "X-Amz-Date: " + signer.amzDate() + "\r\n"
                + "Authorization: " + signer.authorization(endpoint.hostHeader(), target, body) + "\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream(head.length() + body.length);
        out.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(body);
        return out.toByteArray();
    }
}

package io.stator.server.auth;

/**
 * Who sent a request, as its signature's credential scope says.
 *
 * @param accessKeyId the access key id from the credential scope; verified against its secret
 *     only when {@code verified}
 * @param region the region the request was signed for (the scope's third part): the region
 *     the request addresses
 * @param verified true when the signature was checked against a known secret, false when the
 *     authenticator accepts any key (anonymous mode)
 */
public record Caller(String accessKeyId, String region, boolean verified) {}

package io.stator.server.auth;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.identity.spi.AwsSessionCredentialsIdentity;

/**
 * Signs requests shaped like the AWS SDK's DynamoDB calls with the SDK's own SigV4 signer, so
 * the tests check the authenticator against the signer clients really use, not against itself.
 */
final class AwsSdkSigning {

    static final String ACCESS_KEY_ID = "AKIASTATORTEST000001";
    static final String SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYzStatorKEY";
    static final String REGION = "eu-west-1";
    static final byte[] BODY = "{\"TableName\":\"Music\",\"Item\":{\"Artist\":{\"S\":\"No One You Know\"}}}"
            .getBytes(StandardCharsets.UTF_8);

    private AwsSdkSigning() {}

    /** A PutItem as the SDK sends it to a local endpoint, before signing. */
    static SdkHttpRequest putItem() {
        return SdkHttpRequest.builder()
                .method(SdkHttpMethod.POST)
                .protocol("http")
                .host("localhost")
                .port(8000)
                .encodedPath("/")
                .putHeader("Content-Type", "application/x-amz-json-1.0")
                .putHeader("X-Amz-Target", "DynamoDB_20120810.PutItem")
                .putHeader("Content-Length", Integer.toString(BODY.length))
                .putHeader("amz-sdk-invocation-id", "0c7d4f3e-6a4b-4c9f-9d35-8f1b1d2c3e4f")
                .build();
    }

    static Signed sign(SdkHttpRequest request, byte[] body, String accessKeyId, String secret, String region,
                       Instant at) {
        return sign(request, body, AwsCredentialsIdentity.create(accessKeyId, secret), region, at, UnaryOperator.identity());
    }

    static Signed sign(SdkHttpRequest request, byte[] body, AwsCredentialsIdentity identity, String region,
                       Instant at, UnaryOperator<SignProperties> extra) {
        SignProperties props = extra.apply(new SignProperties(AwsV4FamilyHttpSigner.AuthLocation.HEADER));
        software.amazon.awssdk.http.auth.spi.signer.SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r
                .identity(identity)
                .request(request)
                .payload(ContentStreamProvider.fromByteArray(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "dynamodb")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                .putProperty(AwsV4HttpSigner.AUTH_LOCATION, props.location())
                .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC)));
        return new Signed(signed.request(), body);
    }

    static Signed signedPutItem(Instant at) {
        return sign(putItem(), BODY, ACCESS_KEY_ID, SECRET, REGION, at);
    }

    static AwsCredentialsIdentity sessionIdentity(String token) {
        return AwsSessionCredentialsIdentity.create(ACCESS_KEY_ID, SECRET, token);
    }

    record SignProperties(AwsV4FamilyHttpSigner.AuthLocation location) {
        SignProperties inQueryString() {
            return new SignProperties(AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING);
        }
    }

    /** A signed SDK request, and the means to turn it (or a doctored copy) into what the server sees. */
    record Signed(SdkHttpRequest request, byte[] body) {

        SignedRequest toSignedRequest() {
            return toSignedRequest(request, body);
        }

        SignedRequest withBody(byte[] otherBody) {
            return toSignedRequest(request, otherBody);
        }

        SignedRequest withHeader(String name, String value) {
            return toSignedRequest(request.toBuilder().putHeader(name, value).build(), body);
        }

        SignedRequest withoutHeader(String name) {
            return toSignedRequest(request.toBuilder().removeHeader(name).build(), body);
        }

        String header(String name) {
            return request.firstMatchingHeader(name).orElseThrow();
        }

        private static SignedRequest toSignedRequest(SdkHttpRequest request, byte[] body) {
            Map<String, List<String>> headers = new TreeMap<>(request.headers());
            String rawQuery = request.getUri().getRawQuery();
            return SignedRequest.of(request.method().name(), request.encodedPath(), rawQuery, headers, body);
        }
    }
}

package io.stator.server.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * How Accept-Encoding picks a response's coding, case by case as DynamoDB answered them
 * (scylladb/scylladb test/alternator/test_compressed_response.py,
 * test_compressed_response_accept_encodings, run against DynamoDB). "none": not compressed.
 */
class ContentCodingsTest {

    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "identity | none",
            "`` | none",
            "br | none",
            "zstd | none",
            "compress | none",
            "x-gzip | none",
            "gzip | gzip",
            "deflate | deflate",
            "gzip, deflate | gzip",
            "br, identity, deflate, gzip | deflate",
            "GZIP, identity | gzip",
            "gzip;q=0.8, deflate;q=0.5 | gzip",
            "* | gzip",
            "*, deflate | deflate",
            "*, gzip;q=0.5 | deflate",
            "gzip ;q=0 | none",
            "*;q=0 | none",
            "*;q=0.5,identity | gzip",
            "`\"gzip\"` | none",
            "gzip br | none",
            "gzip:q=1 | none",
            "deflate;q=0.5, gzip;q=31 | gzip",
            "deflate;q=0.5, gzip;q=1;q=0.2 | gzip",
            "deflate;q=0.5,gzip;q=0.x | gzip",
            "deflate;q=-0.5,gzip;q=0.2 | gzip",
            "`gzip;nq=1;q=0 ` | none",
            "gzip;q=0, gzip;q=1, gzip;q=0 | gzip",
            "br,identity;q=0.5,gzip;q=0.0001 | gzip"})
    void acceptEncodingIsReadAsDynamoDbReadsIt(String acceptEncoding, String chosen) {
        String coding = ContentCodings.negotiate(acceptEncoding);
        assertEquals(chosen, coding == null ? "none" : coding);
    }
}

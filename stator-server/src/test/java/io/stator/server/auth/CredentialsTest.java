package io.stator.server.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CredentialsTest {

    @Test
    void loadsKeysSkippingBlankLinesAndComments(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("credentials");
        Files.writeString(file, """
                # Stator access keys
                AKIAFIRST   secret/with+slash=

                \t# indented comment
                AKIASECOND\tsecond-secret
                  AKIATHIRD third  \t
                """, StandardCharsets.UTF_8);
        Credentials credentials = Credentials.load(file);
        assertEquals(3, credentials.size());
        assertEquals("secret/with+slash=", credentials.secretAccessKey("AKIAFIRST"));
        assertEquals("second-secret", credentials.secretAccessKey("AKIASECOND"));
        assertEquals("third", credentials.secretAccessKey("AKIATHIRD"));
        assertNull(credentials.secretAccessKey("AKIAFOURTH"));
        assertTrue(credentials.contains("AKIAFIRST"));
        assertFalse(credentials.contains("akiafirst"));
    }

    @Test
    void lineWithOneFieldIsAnErrorNamingTheLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Credentials.parse("# keys\nAKIAFIRST secret\n\nAKIALONELY\n", "creds.txt"));
        assertEquals("creds.txt, line 4: expected 'ACCESS_KEY_ID SECRET_ACCESS_KEY [SESSION_TOKEN]' (2 or 3 fields "
                + "separated by spaces), found 1 field", e.getMessage());
    }

    @Test
    void lineWithFourFieldsIsAnErrorThatDoesNotEchoTheSecretOrTheToken() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Credentials.parse("AKIAFIRST top-secret session-token extra\n", "creds.txt"));
        assertEquals("creds.txt, line 1: expected 'ACCESS_KEY_ID SECRET_ACCESS_KEY [SESSION_TOKEN]' (2 or 3 fields "
                + "separated by spaces), found 4 fields", e.getMessage());
        assertFalse(e.getMessage().contains("top-secret"));
        assertFalse(e.getMessage().contains("session-token"));
    }

    @Test
    void aThirdFieldIsTheSessionTokenOfATemporaryKey() {
        Credentials credentials = Credentials.parse("""
                AKIALONGTERM long-term-secret
                ASIATEMPORARY\ttemporary-secret   FwoGZXIvYXdzEJr//////////wEaDEXAMPLE+token==
                """, "creds.txt");
        assertEquals(2, credentials.size());
        assertEquals("temporary-secret", credentials.secretAccessKey("ASIATEMPORARY"));
        assertEquals("FwoGZXIvYXdzEJr//////////wEaDEXAMPLE+token==", credentials.sessionToken("ASIATEMPORARY"));
        assertEquals(new Credentials.AccessKey("long-term-secret", null), credentials.accessKey("AKIALONGTERM"));
        assertNull(credentials.sessionToken("AKIALONGTERM"));
        assertNull(credentials.sessionToken("AKIAUNKNOWN"));
        assertNull(credentials.accessKey("AKIAUNKNOWN"));
    }

    @Test
    void neitherTheCredentialsNorAnAccessKeyShowTheirSecretsOrTokens() {
        Credentials credentials = Credentials.parse("ASIATEMP top-secret session-token\n", "x");
        String text = credentials + " " + credentials.accessKey("ASIATEMP");
        assertTrue(text.contains("ASIATEMP"), text);
        assertFalse(text.contains("top-secret"), text);
        assertFalse(text.contains("session-token"), text);
    }

    @Test
    void accessKeyGivenTwiceIsAnError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Credentials.parse("AKIAFIRST one\n#\nAKIAFIRST two\n", "creds.txt"));
        assertEquals("creds.txt, line 3: access key id 'AKIAFIRST' is already defined on line 1", e.getMessage());
    }

    @Test
    void emptyFileHasNoKeys() {
        assertEquals(0, Credentials.parse("\n# nothing yet\n", "empty").size());
    }

    @Test
    void byteOrderMarkIsIgnored() {
        assertEquals("s", Credentials.parse("\uFEFFAKIA s\n", "bom").secretAccessKey("AKIA"));
    }

    @Test
    void toStringShowsKeyIdsButNoSecrets() {
        String text = Credentials.parse("AKIAFIRST top-secret\n", "x").toString();
        assertTrue(text.contains("AKIAFIRST"));
        assertFalse(text.contains("top-secret"));
    }

    @Test
    void missingFileIsAnIoError(@TempDir Path dir) {
        assertThrows(IOException.class, () -> Credentials.load(dir.resolve("absent")));
    }
}

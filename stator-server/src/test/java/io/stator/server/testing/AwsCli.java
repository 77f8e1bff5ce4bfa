package io.stator.server.testing;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * What the tests that drive the AWS CLI (and boto3) need: the program, and an environment with
 * test credentials and nothing of the user's own AWS set-up.
 */
public final class AwsCli {

    private AwsCli() {}

    /**
     * Test credentials and region, and no profile, config file, session token or pager of the
     * user's; {@code dir} holds the (missing) config files.
     */
    public static Map<String, String> environment(Path dir) {
        Map<String, String> env = new HashMap<>();
        env.put("AWS_ACCESS_KEY_ID", "AKIDSTATORIT");
        env.put("AWS_SECRET_ACCESS_KEY", "stator-it-secret");
        env.put("AWS_DEFAULT_REGION", "us-east-1");
        env.put("AWS_CONFIG_FILE", dir.resolve("no-config").toString());
        env.put("AWS_SHARED_CREDENTIALS_FILE", dir.resolve("no-credentials").toString());
        env.put("AWS_SESSION_TOKEN", null);
        env.put("AWS_PROFILE", null);
        env.put("AWS_PAGER", "");
        env.put("AWS_EC2_METADATA_DISABLED", "true");
        env.put("AWS_CA_BUNDLE", null);
        return env;
    }

    /** The named program on PATH, or a failure that says it is missing. */
    public static String requireOnPath(String program, String installHint) {
        for (String entry : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(entry.isEmpty() ? "." : entry, program);
            if (Files.isExecutable(candidate)) return candidate.toString();
        }
        return fail("'" + program + "' is not on PATH (" + System.getenv("PATH") + "); this test needs it: "
                + installHint);
    }
}

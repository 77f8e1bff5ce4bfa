package io.stator.engine;

import java.time.Clock;

/**
 * Settings the engine needs from the command line: the region and account id that appear in
 * ARNs, and the clock (injected so that tests control time).
 */
public record EngineConfig(String region, String accountId, Clock clock) {

    public static final String DEFAULT_REGION = "us-east-1";
    public static final String DEFAULT_ACCOUNT_ID = "000000000000";

    public static EngineConfig defaults() {
        return new EngineConfig(DEFAULT_REGION, DEFAULT_ACCOUNT_ID, Clock.systemUTC());
    }
}

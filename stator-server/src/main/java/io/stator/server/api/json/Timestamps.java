package io.stator.server.api.json;

import java.time.Instant;

/** A request's timestamp member: epoch seconds with a fraction, as the SDKs send them. */
public final class Timestamps {

    private Timestamps() {}

    /** The instant, to the millisecond; null for a member not given. */
    public static Instant instant(Double epochSeconds) {
        return epochSeconds == null ? null : Instant.ofEpochMilli(Math.round(epochSeconds * 1000));
    }
}

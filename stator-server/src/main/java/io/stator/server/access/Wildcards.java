package io.stator.server.access;

/**
 * IAM's wildcards: {@code *} matches any run of characters (none included), {@code ?} any one
 * character. Action names match without regard to case; everything else with it. An ARN pattern
 * matches an ARN part by part (partition, service, region, account, resource), so that a
 * {@code *} in the region never reaches into the resource, while one in the resource part spans
 * slashes ({@code table/T/*} covers {@code table/T/index/I}).
 */
final class Wildcards {

    private Wildcards() {}

    static boolean matches(String pattern, String value, boolean ignoreCase) {
        int p = 0;
        int v = 0;
        int starP = -1;
        int starV = 0;
        while (v < value.length()) {
            if (p < pattern.length() && (pattern.charAt(p) == '?' || same(pattern.charAt(p), value.charAt(v), ignoreCase))) {
                p++;
                v++;
            } else if (p < pattern.length() && pattern.charAt(p) == '*') {
                starP = p++;
                starV = v;
            } else if (starP >= 0) {
                p = starP + 1;
                v = ++starV;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') p++;
        return p == pattern.length();
    }

    private static boolean same(char a, char b, boolean ignoreCase) {
        return a == b || ignoreCase && Character.toLowerCase(a) == Character.toLowerCase(b);
    }

    /** An ARN pattern against an ARN; "*" matches anything, even what is not an ARN. */
    static boolean matchesArn(String pattern, String arn) {
        if (pattern.equals("*")) return true;
        String[] p = pattern.split(":", 6);
        String[] a = arn.split(":", 6);
        if (p.length != 6 || a.length != 6) return matches(pattern, arn, false);
        for (int i = 0; i < 6; i++) {
            if (!matches(p[i], a[i], false)) return false;
        }
        return true;
    }
}

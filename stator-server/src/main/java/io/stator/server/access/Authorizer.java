package io.stator.server.access;

/**
 * The authorization of one caller's requests. An action asks it, for each thing the request
 * does, whether the caller may (DynamoDB's order of checks decides where); a refusal is
 * AccessDeniedException with AWS's message.
 *
 * <p>Without --policies the server authorizes nothing: every action gets {@link #UNCHECKED},
 * whose {@link #enforced()} is false, and builds no request context at all (so that a server
 * without policies does no work for them).
 */
public interface Authorizer {

    /** Every request is allowed; nothing is looked at. */
    Authorizer UNCHECKED = new Authorizer() {
        @Override
        public boolean enforced() { return false; }

        @Override
        public void authorize(AccessRequest request, String resourcePolicy) {}

        @Override
        public void checkKeepsPolicyAccess(Policy newPolicy, String resourceArn) {}
    };

    /** False when nothing is checked: the caller may skip building the request context. */
    boolean enforced();

    /**
     * Allows the request or throws AccessDeniedException.
     *
     * @param resourcePolicy the resource's policy document (a table's, for the table and its
     *                       indexes), or null when it has none or does not exist
     */
    void authorize(AccessRequest request, String resourcePolicy);

    /**
     * PutResourcePolicy's guard against locking oneself out: AccessDeniedException when the new
     * document explicitly denies the caller dynamodb:PutResourcePolicy on the resource (unless
     * the request confirms it with ConfirmRemoveSelfResourceAccess, which the caller checks).
     */
    void checkKeepsPolicyAccess(Policy newPolicy, String resourceArn);

    /**
     * Says that a request that succeeded touched nothing to authorize (a batch whose every
     * statement was refused before it named a resource); every other successful request asked
     * {@link #authorize} at least once.
     */
    default void nothingToAuthorize() {}
}

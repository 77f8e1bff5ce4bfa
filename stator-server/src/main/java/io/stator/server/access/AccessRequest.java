package io.stator.server.access;

import java.util.List;
import java.util.Map;

/**
 * What one authorization decides: may the caller perform {@code action} on {@code resource},
 * given the request's condition keys? (IAM's "request context", less the principal's part,
 * which the {@link Authorizer} adds.)
 *
 * @param action   as IAM names it, e.g. {@code dynamodb:PutItem}
 * @param resource the resource's ARN, or {@code *} for actions on no resource (ListTables)
 * @param keys     the service's condition keys, lower-cased ({@code dynamodb:leadingkeys}); a key
 *                 absent from the map is absent from the request, one mapped to an empty list is
 *                 present with no values
 */
public record AccessRequest(String action, String resource, Map<String, List<String>> keys) {}

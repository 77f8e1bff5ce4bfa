package io.stator.server.api;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.DescribeEndpointsRequest;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * DescribeEndpoints. DynamoDB answers with its regional address; Stator answers with its own
 * address, so that a client with endpoint discovery on keeps talking to this server rather than
 * to AWS. The cache period is DynamoDB's (1440 minutes).
 */
final class DescribeEndpoints implements Action<DescribeEndpointsRequest> {

    private final Supplier<String> address;

    DescribeEndpoints(Supplier<String> address) {
        this.address = address;
    }

    @Override
    public void execute(DescribeEndpointsRequest request, Authorizer access, ResponseBody response) throws IOException {
        if (access.enforced()) Permissions.account(access, "DescribeEndpoints");
        JsonGenerator g = response.json();
        g.writeArrayFieldStart("Endpoints");
        g.writeStartObject();
        g.writeStringField("Address", address.get());
        g.writeNumberField("CachePeriodInMinutes", 1440);
        g.writeEndObject();
        g.writeEndArray();
    }
}

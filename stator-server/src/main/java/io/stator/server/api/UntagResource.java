package io.stator.server.api;

import io.stator.engine.Engine;
import io.stator.server.access.Authorizer;
import io.stator.server.access.Permissions;
import io.stator.server.protocol.ResponseBody;
import io.stator.server.protocol.request.UntagResourceInput;
import java.util.Map;

/** UntagResource: removes tags by key (absent keys are no-ops); the response body is empty. */
final class UntagResource implements Action<UntagResourceInput> {

    private final Engine engine;

    UntagResource(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void execute(UntagResourceInput request, Authorizer access, ResponseBody response) {
        if (access.enforced()) {
            Permissions.tagging(access, "UntagResource", request.resourceArn(),
                    Permissions.tableOfArn(engine, request.resourceArn()), Map.of(), request.tagKeys());
        }
        engine.tables().untag(request.resourceArn(), request.tagKeys());
    }
}

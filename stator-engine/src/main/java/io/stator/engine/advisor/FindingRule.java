package io.stator.engine.advisor;

import java.util.List;

/** One finding's detection: reads what was observed of one table and adds what it finds. */
interface FindingRule {

    void find(AdvisorContext context, List<Finding> out);
}

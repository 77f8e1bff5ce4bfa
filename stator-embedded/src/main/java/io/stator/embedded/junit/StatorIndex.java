package io.stator.embedded.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** A secondary index of a {@link StatorTable}. */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface StatorIndex {

    String name();

    /** The index's partition key (global indexes; a local index has the table's). */
    String partitionKey() default "";

    ScalarAttributeType partitionKeyType() default ScalarAttributeType.S;

    /** The index's sort key; none when empty. */
    String sortKey() default "";

    ScalarAttributeType sortKeyType() default ScalarAttributeType.S;

    ProjectionType projection() default ProjectionType.ALL;

    /** With {@code INCLUDE}: the other attributes projected. */
    String[] nonKeyAttributes() default {};
}

package io.stator.embedded.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * A table the embedded server creates before the tests (on-demand billing), with its keys,
 * indexes, stream and Time to Live attribute.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Repeatable(StatorTable.List.class)
public @interface StatorTable {

    String name();

    String partitionKey();

    ScalarAttributeType partitionKeyType() default ScalarAttributeType.S;

    /** The sort key's name; none when empty. */
    String sortKey() default "";

    ScalarAttributeType sortKeyType() default ScalarAttributeType.S;

    StatorIndex[] globalIndexes() default {};

    /** Local indexes: each names its sort key; the partition key is the table's. */
    StatorIndex[] localIndexes() default {};

    /** The stream's view type (KEYS_ONLY, NEW_IMAGE, OLD_IMAGE, NEW_AND_OLD_IMAGES); none when empty. */
    String streamView() default "";

    /** The attribute Time to Live reads; disabled when empty. */
    String ttlAttribute() default "";

    /** Several tables on one class. */
    @Target(ElementType.TYPE)
    @Retention(RetentionPolicy.RUNTIME)
    @Documented
    @Inherited
    @interface List {
        StatorTable[] value();
    }
}

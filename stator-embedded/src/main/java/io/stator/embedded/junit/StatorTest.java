package io.stator.embedded.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the test class against an embedded Stator ({@link StatorExtension}): one server for the
 * class by default, or one per test method; the tables declared with {@link StatorTable} and in
 * {@link #tableFiles}, the items of {@link #seedFiles}, and every table's items reset to those
 * between tests.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(StatorExtension.class)
public @interface StatorTest {

    /** How long one server lives. */
    enum Lifecycle {
        /** One server for the whole class (and its nested classes); items reset between tests. */
        PER_CLASS,
        /** A fresh server for each test method. */
        PER_METHOD
    }

    Lifecycle lifecycle() default Lifecycle.PER_CLASS;

    /**
     * With one server per class, whether every table's items are deleted after each test and the
     * seed files written again, so that each test starts from the same data. The tables stay.
     */
    boolean resetItems() default true;

    /**
     * Classpath resources each holding one CreateTable request, the JSON {@code aws dynamodb
     * create-table --cli-input-json} takes.
     */
    String[] tableFiles() default {};

    /**
     * Classpath resources of items to write once the tables exist, in the JSON {@code aws
     * dynamodb batch-write-item --request-items} takes ({@code {"Table": [{"PutRequest":
     * {"Item": {...}}}]}}); any number of items per file.
     */
    String[] seedFiles() default {};

    /** Whether the data stays in memory (the default) or goes to a temporary directory on disk. */
    boolean inMemory() default true;
}

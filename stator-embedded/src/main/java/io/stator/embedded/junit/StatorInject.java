package io.stator.embedded.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A field {@link StatorExtension} fills before each test, by its type: {@code EmbeddedStator},
 * {@code StatorClock}, {@code URI} (the endpoint), {@code DynamoDbClient},
 * {@code DynamoDbAsyncClient}, {@code DynamoDbEnhancedClient} or {@code DynamoDbStreamsClient}.
 * A static field is filled once for the class (one server per class only).
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface StatorInject {}

package io.stator.embedded.junit;

import io.stator.embedded.EmbeddedStator;
import io.stator.embedded.StatorClock;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import software.amazon.awssdk.enhanced.dynamodb.DynamoDbEnhancedClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Starts an embedded Stator for a test class ({@link StatorTest} says how), creates its tables,
 * seeds them, resets them between tests, and hands the server, its clock and its clients to the
 * test: as parameters of test methods, lifecycle methods and constructors, and in fields marked
 * {@link StatorInject}.
 */
public final class StatorExtension
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(StatorExtension.class);
    private static final String SERVER = "server";

    /** What can be injected, and where each comes from. */
    private static final List<Injectable<?>> INJECTABLES = List.of(
            new Injectable<>(EmbeddedStator.class, s -> s),
            new Injectable<>(StatorClock.class, EmbeddedStator::clock),
            new Injectable<>(URI.class, EmbeddedStator::endpoint),
            new Injectable<>(DynamoDbClient.class, EmbeddedStator::client),
            new Injectable<>(DynamoDbAsyncClient.class, EmbeddedStator::asyncClient),
            new Injectable<>(DynamoDbEnhancedClient.class, EmbeddedStator::enhancedClient),
            new Injectable<>(DynamoDbStreamsClient.class, EmbeddedStator::streamsClient));

    private record Injectable<T>(Class<T> type, Function<EmbeddedStator, T> from) {}

    @Override
    public void beforeAll(ExtensionContext context) throws IllegalAccessException {
        StatorTest settings = settings(context);
        if (settings.lifecycle() != StatorTest.Lifecycle.PER_CLASS) return;
        // A nested class runs on its enclosing class's server.
        if (context.getStore(NAMESPACE).get(SERVER, EmbeddedStator.class) != null) return;
        EmbeddedStator stator = startAndPrepare(context, settings);
        context.getStore(NAMESPACE).put(SERVER, stator);
        injectFields(context.getRequiredTestClass(), null, stator, true);
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IllegalAccessException {
        StatorTest settings = settings(context);
        EmbeddedStator stator;
        if (settings.lifecycle() == StatorTest.Lifecycle.PER_METHOD) {
            stator = startAndPrepare(context, settings);
            context.getStore(NAMESPACE).put(SERVER, stator);
        } else {
            stator = server(context);
        }
        for (Object instance : context.getRequiredTestInstances().getAllInstances()) {
            injectFields(instance.getClass(), instance, stator, false);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        StatorTest settings = settings(context);
        if (settings.lifecycle() == StatorTest.Lifecycle.PER_METHOD) {
            EmbeddedStator stator = context.getStore(NAMESPACE).remove(SERVER, EmbeddedStator.class);
            if (stator != null) stator.close();
        } else if (settings.resetItems()) {
            EmbeddedStator stator = server(context);
            stator.resetItems();
            seed(context, settings, stator);
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        // Only the class that started the server closes it (remove does not reach the enclosing class's store).
        EmbeddedStator stator = context.getStore(NAMESPACE).remove(SERVER, EmbeddedStator.class);
        if (stator != null) stator.close();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return injectable(parameter.getParameter().getType()) != null;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        EmbeddedStator stator = context.getStore(NAMESPACE).get(SERVER, EmbeddedStator.class);
        if (stator == null) {
            throw new ParameterResolutionException("no Stator is running for " + parameter.getDeclaringExecutable()
                    + " (with one server per method, none is running while the test instance is built)");
        }
        return injectable(parameter.getParameter().getType()).from().apply(stator);
    }

    private static EmbeddedStator server(ExtensionContext context) {
        EmbeddedStator stator = context.getStore(NAMESPACE).get(SERVER, EmbeddedStator.class);
        if (stator == null) throw new IllegalStateException("no Stator is running for " + context.getDisplayName());
        return stator;
    }

    /** The {@link StatorTest} of the class, or its defaults when the extension was registered alone. */
    private static StatorTest settings(ExtensionContext context) {
        for (Class<?> c = context.getRequiredTestClass(); c != null; c = c.getEnclosingClass()) {
            var found = AnnotationSupport.findAnnotation(c, StatorTest.class);
            if (found.isPresent()) return found.get();
        }
        return Defaults.class.getAnnotation(StatorTest.class);
    }

    @StatorTest
    private static final class Defaults {}

    private static EmbeddedStator startAndPrepare(ExtensionContext context, StatorTest settings) {
        EmbeddedStator.Builder builder = EmbeddedStator.builder();
        if (!settings.inMemory()) builder.dataDirectory(null);
        EmbeddedStator stator = builder.start();
        try {
            for (StatorTable table : tables(context)) TableDeclarations.create(stator, table);
            for (String file : settings.tableFiles()) stator.createTable(resource(context, file));
            seed(context, settings, stator);
            return stator;
        } catch (RuntimeException | Error e) {
            stator.close();
            throw e;
        }
    }

    /** The tables declared on the class and on the classes that enclose it. */
    private static List<StatorTable> tables(ExtensionContext context) {
        List<StatorTable> tables = new ArrayList<>();
        for (Class<?> c = context.getRequiredTestClass(); c != null; c = c.getEnclosingClass()) {
            tables.addAll(AnnotationSupport.findRepeatableAnnotations(c, StatorTable.class));
        }
        return tables;
    }

    private static void seed(ExtensionContext context, StatorTest settings, EmbeddedStator stator) {
        for (String file : settings.seedFiles()) stator.seed(resource(context, file));
    }

    /** A classpath resource, by absolute name or relative to the test class. */
    private static String resource(ExtensionContext context, String name) {
        Class<?> testClass = context.getRequiredTestClass();
        try (InputStream in = testClass.getResourceAsStream(name)) {
            if (in == null) {
                throw new ExtensionConfigurationException("no resource " + name + " on the class path of "
                        + testClass.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void injectFields(Class<?> type, Object instance, EmbeddedStator stator, boolean statics)
            throws IllegalAccessException {
        for (Field field : AnnotationSupport.findAnnotatedFields(type, StatorInject.class)) {
            if (Modifier.isStatic(field.getModifiers()) != statics) continue;
            Injectable<?> injectable = injectable(field.getType());
            if (injectable == null) {
                throw new ExtensionConfigurationException("@StatorInject cannot fill " + field + ": its type is none of "
                        + INJECTABLES.stream().map(i -> i.type().getSimpleName()).toList());
            }
            field.setAccessible(true);
            field.set(instance, injectable.from().apply(stator));
        }
    }

    private static Injectable<?> injectable(Class<?> type) {
        for (Injectable<?> i : INJECTABLES) {
            if (i.type() == type) return i;
        }
        return null;
    }
}

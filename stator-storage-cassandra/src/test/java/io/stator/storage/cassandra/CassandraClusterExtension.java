package io.stator.storage.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * One {@link CassandraCluster} for every test class of the JVM that extends with this: started
 * (or, with {@value CassandraCluster#CONTACT_POINTS_ENV}, connected to) by the first of them, kept
 * in JUnit's root store and closed with it when the test run ends; a shutdown hook kills the nodes
 * should the JVM end otherwise. Test methods and lifecycle methods take a {@link CassandraCluster}
 * or a {@link CqlSession} (its shared session) as parameters.
 *
 * <p>A test that kills nodes must start them again before it returns: the next class gets the
 * same cluster.
 */
public final class CassandraClusterExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(CassandraClusterExtension.class);

    /** The JVM's cluster, started on first use. */
    public static CassandraCluster cluster(ExtensionContext context) {
        // An AutoCloseable value of the root store is closed when the test run ends.
        return context.getRoot().getStore(NAMESPACE).getOrComputeIfAbsent(
                CassandraCluster.class, key -> CassandraCluster.shared(), CassandraCluster.class);
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        cluster(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        Class<?> type = parameterContext.getParameter().getType();
        return type == CassandraCluster.class || type == CqlSession.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        CassandraCluster cluster = cluster(extensionContext);
        return parameterContext.getParameter().getType() == CqlSession.class ? cluster.session() : cluster;
    }
}

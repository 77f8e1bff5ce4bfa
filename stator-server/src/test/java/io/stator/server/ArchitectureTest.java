package io.stator.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import io.stator.engine.Engine;
import io.stator.engine.cluster.Deployment;
import io.stator.server.api.Action;
import io.stator.storage.Keyspace;
import io.stator.storage.Storage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layout shows the architecture (docs/architecture.md), and these rules keep it so: no
 * package depends on itself through others; the modules' arrows point down only (server ->
 * engine -> core and the storage contract; the server also -> the RocksDB and Cassandra backends,
 * which only its assembly (io.stator.server, the command line) knows; each backend knows only the
 * contract); an action never calls another action; no main source file grows past 800 lines;
 * what differs between one server and a cluster stays in engine/cluster; the storage enumerates
 * no key space of the engine.
 */
class ArchitectureTest {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // A module's test-jar (stator-storage-rocksdb-tests.jar in a full build) holds tests too.
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("io.stator");

    private static final int MAX_SOURCE_LINES = 800;

    @Test
    void everyModuleIsChecked() {
        for (String module : List.of("io.stator.core.model.AttributeValue", "io.stator.storage.Storage",
                "io.stator.storage.rocksdb.RocksStorage", "io.stator.storage.cassandra.CassandraCollectionStore",
                "io.stator.engine.Engine", "io.stator.server.StatorServer")) {
            assertEquals(true, MAIN.contain(module), module);
        }
    }

    @Test
    void noPackageCycles() {
        slices().matching("io.stator.(**)").should().beFreeOfCycles().check(MAIN);
    }

    @Test
    void theCoreDependsOnNothingOfStatorAboveIt() {
        noClasses().that().resideInAPackage("io.stator.core..")
                .should().dependOnClassesThat().resideInAnyPackage("io.stator.storage..", "io.stator.engine..",
                        "io.stator.server..")
                .check(MAIN);
    }

    @Test
    void theStorageContractAndItsBackendsKnowNothingOfTheEngine() {
        noClasses().that().resideInAPackage("io.stator.storage..")
                .should().dependOnClassesThat().resideInAnyPackage("io.stator.engine..", "io.stator.server..",
                        "io.stator.core..")
                .check(MAIN);
    }

    @Test
    void theEngineKnowsNoFrontEndAndNoBackend() {
        noClasses().that().resideInAPackage("io.stator.engine..")
                .should().dependOnClassesThat().resideInAnyPackage("io.stator.server..", "io.stator.storage.rocksdb..",
                        "io.stator.storage.cassandra..", "com.datastax..", "com.fasterxml.jackson..", "io.netty..")
                .check(MAIN);
    }

    /**
     * What differs between one server and several sharing a store is the engine's {@link
     * Deployment}, chosen once, by the Engine: no other class asks which one it runs in (an
     * instanceof of an implementation is a dependency on it), nor knows the shared store's
     * emulation of the storage contract, its transactions on compare-and-set or its upkeep.
     */
    @Test
    void theClusterModeIsChosenOnceAndKeptInItsPackage() {
        DescribedPredicate<JavaClass> insideTheStrategy = JavaClass.Predicates.resideInAPackage("io.stator.engine.cluster..")
                .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(Deployment.class)));
        noClasses().that().resideOutsideOfPackage("io.stator.engine.cluster..")
                .should().dependOnClassesThat(insideTheStrategy.as("are the cluster strategy's implementations"))
                .check(MAIN);
        noClasses().that().resideOutsideOfPackage("io.stator.engine.cluster..")
                .and().doNotBelongToAnyOf(Engine.class)
                .should().callMethod(Deployment.class, "of", Storage.class)
                .check(MAIN);
    }

    /**
     * The storage contract and its backends enumerate no key space: whoever opens a store
     * declares its own ({@code io.stator.engine.keyspace.Keyspaces}), so that an engine feature
     * never edits the contract. A key space is a name, not an enum of the engine's features.
     */
    @Test
    void theStorageNamesNoKeyspaceOfTheEngine() {
        assertEquals(false, MAIN.get(Keyspace.class).isEnum(), "Keyspace is a neutral handle, not an enumeration");
        noFields().that().areDeclaredInClassesThat().resideInAPackage("io.stator.storage..")
                .and().areStatic()
                .should().haveRawType(Keyspace.class)
                .because("the engine declares its key spaces, not the storage")
                .check(MAIN);
    }

    @Test
    void theBackendsKnowNothingOfEachOther() {
        noClasses().that().resideInAPackage("io.stator.storage.rocksdb..")
                .should().dependOnClassesThat().resideInAnyPackage("io.stator.storage.cassandra..", "com.datastax..")
                .check(MAIN);
        noClasses().that().resideInAPackage("io.stator.storage.cassandra..")
                .should().dependOnClassesThat().resideInAPackage("io.stator.storage.rocksdb..")
                .check(MAIN);
    }

    @Test
    void onlyTheServersAssemblyKnowsTheBackends() {
        // StorageBackends opens one; the command line parses --cassandra's addresses. Requests,
        // HTTP, signatures, access and metrics reach the data through the engine only.
        noClasses().that().resideInAPackage("io.stator.server..")
                .and().resideOutsideOfPackages("io.stator.server", "io.stator.server.cli")
                .should().dependOnClassesThat().resideInAnyPackage("io.stator.storage.rocksdb..",
                        "io.stator.storage.cassandra..", "com.datastax..")
                .check(MAIN);
    }

    @Test
    void noActionCallsAnotherAction() {
        classes().that().implement(Action.class).should(new ArchCondition<>("depend on no other action") {
            @Override
            public void check(JavaClass action, ConditionEvents events) {
                for (Dependency d : action.getDirectDependenciesFromSelf()) {
                    JavaClass target = d.getTargetClass();
                    if (!target.equals(action) && target.isAssignableTo(Action.class) && !target.isInterface()) {
                        events.add(SimpleConditionEvent.violated(action, d.getDescription()));
                    }
                }
            }
        }).check(MAIN);
    }

    @Test
    void actionsReadTypedRequestsNotTheModelsShapes() {
        noClasses().that().resideInAPackage("io.stator.server.api..")
                .should().dependOnClassesThat(DescribedPredicate.describe("the service model's shapes or reader",
                        (JavaClass c) -> c.getPackageName().equals("io.stator.server.protocol")
                                && List.of("Shape", "ServiceModel", "RequestReader", "Constraints")
                                        .contains(c.getSimpleName().replaceAll("\\$.*", ""))))
                .check(MAIN);
    }

    /**
     * The wire layer split by concern: {@code server/api} holds the actions (and their registry),
     * {@code api/checks} the request checks several actions share, {@code api/json} the replies'
     * JSON, {@code server/access} who may do what. Checks and JSON know no action.
     */
    @Test
    void theWireLayerIsSplitByConcern() {
        classes().that().resideInAPackage("io.stator.server.api").and().areTopLevelClasses()
                .should().implement(Action.class).orShould().beAssignableTo(Action.class)
                .orShould().haveSimpleName("Actions")
                .check(MAIN);
        noClasses().that().resideInAnyPackage("io.stator.server.api.checks..", "io.stator.server.api.json..",
                        "io.stator.server.access..")
                .should().dependOnClassesThat().resideInAPackage("io.stator.server.api")
                .check(MAIN);
        noClasses().that().resideInAPackage("io.stator.server.api.json..")
                .should().dependOnClassesThat().resideInAnyPackage("io.stator.server.api.checks..",
                        "io.stator.server.access..")
                .check(MAIN);
    }

    /**
     * The engine's narrow API: the server's front ends use only the engine's operations and
     * specs (its top package and the packages of tables, items, reads, writes, PartiQL, capacity,
     * the advisor, streams, Kinesis destinations, backups and transfers, and a few API types named below), never its
     * machinery (index upkeep, locks, the change log, jobs, Time to Live's expirer, the cluster
     * strategy, the key spaces). The
     * server's assembly (io.stator.server, the command line) also builds the engine: it may name
     * the strategy's factory, the key spaces and the propagation delay it is configured with.
     */
    @Test
    void theServerUsesOnlyTheEnginesApi() {
        List<String> api = List.of("io.stator.engine", "io.stator.engine.table", "io.stator.engine.item",
                "io.stator.engine.read", "io.stator.engine.write", "io.stator.engine.partiql",
                "io.stator.engine.capacity", "io.stator.engine.advisor", "io.stator.engine.streams", "io.stator.engine.kinesis",
                "io.stator.engine.backup", "io.stator.engine.transfer", "io.stator.engine.replication");
        // The API types of packages whose other classes are machinery: Time to Live's operations,
        // a stream record's event, a vector index's distance function.
        List<String> apiTypes = List.of("io.stator.engine.ttl.TimeToLive", "io.stator.engine.changes.ChangeRecord",
                "io.stator.engine.index.vector.Distance");
        List<String> assembly = List.of("io.stator.engine.cluster.Deployment", "io.stator.engine.keyspace.Keyspaces",
                "io.stator.engine.index.PropagationDelay");
        classes().that().resideInAPackage("io.stator.server..").should(new ArchCondition<>("use only the engine's API") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                boolean inAssembly = List.of("io.stator.server", "io.stator.server.cli").contains(origin.getPackageName());
                for (Dependency d : origin.getDirectDependenciesFromSelf()) {
                    JavaClass target = d.getTargetClass();
                    while (target.getEnclosingClass().isPresent()) target = target.getEnclosingClass().get();
                    if (!target.getPackageName().startsWith("io.stator.engine")) continue;
                    if (api.contains(target.getPackageName()) || apiTypes.contains(target.getName())) continue;
                    if (inAssembly && assembly.contains(target.getName())) continue;
                    events.add(SimpleConditionEvent.violated(origin, d.getDescription()));
                }
            }
        }).check(MAIN);
    }

    /**
     * PartiQL is planned in the engine (engine/partiql): its three actions keep only the
     * request's checks, permissions and JSON, and build no read plan of their own.
     */
    @Test
    void partiqlIsPlannedInTheEngine() throws IOException {
        for (String action : List.of("ExecuteStatement", "BatchExecuteStatement", "ExecuteTransaction")) {
            Path source = Path.of("src/main/java/io/stator/server/api/" + action + ".java");
            long lines;
            try (Stream<String> l = Files.lines(source)) {
                lines = l.count();
            }
            assertEquals(true, lines < 150, action + " has " + lines + " lines");
        }
        noClasses().that().resideInAPackage("io.stator.server..")
                .should().dependOnClassesThat().belongToAnyOf(io.stator.engine.read.ReadPlan.class,
                        io.stator.engine.read.ReadTarget.class, io.stator.engine.read.Reads.class)
                .check(MAIN);
    }

    /**
     * Jobs' descriptions are typed (records with enums): only the engine's job store and the
     * descriptions themselves read the stored fields, by name, in one place each.
     */
    @Test
    void jobStateIsTyped() {
        noClasses().that().resideOutsideOfPackages("io.stator.engine.jobs..", "io.stator.engine.transfer..")
                .should().dependOnClassesThat().haveFullyQualifiedName("io.stator.engine.jobs.StoredFields")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("io.stator.engine.jobs.JobStore")
                .check(MAIN);
        for (Class<?> description : List.of(io.stator.engine.transfer.ImportDescription.class,
                io.stator.engine.transfer.ExportDescription.class)) {
            assertEquals(true, description.isRecord(), description.getName());
            for (var component : description.getRecordComponents()) {
                if (component.getName().equals("status")) {
                    assertEquals(true, component.getType().isEnum(), description.getName() + ".status");
                }
            }
        }
    }

    @Test
    void noMainSourceFileIsLongerThan800Lines() throws IOException {
        List<String> tooLong = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("..").toAbsolutePath().normalize())) {
            for (Path file : (Iterable<Path>) files::iterator) {
                String path = file.toString();
                if (!path.endsWith(".java") || !path.contains("/src/main/") || path.contains("/target/")) continue;
                long lines;
                try (Stream<String> l = Files.lines(file)) {
                    lines = l.count();
                }
                if (lines > MAX_SOURCE_LINES) tooLong.add(path + ": " + lines);
            }
        }
        assertEquals(List.of(), tooLong);
    }
}

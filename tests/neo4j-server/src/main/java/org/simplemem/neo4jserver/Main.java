package org.simplemem.neo4jserver;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.CountDownLatch;

import org.neo4j.configuration.GraphDatabaseSettings;
import org.neo4j.configuration.connectors.BoltConnector;
import org.neo4j.configuration.connectors.HttpConnector;
import org.neo4j.configuration.connectors.HttpsConnector;
import org.neo4j.configuration.helpers.SocketAddress;
import org.neo4j.harness.Neo4j;
import org.neo4j.harness.Neo4jBuilders;
import org.neo4j.io.ByteUnit;
import org.neo4j.kernel.internal.Version;

/**
 * A throw-away Neo4j Community server for simplemem-graph's tests and CI.
 *
 * <p>Usage: {@code java [flags] -jar neo4j-test-server.jar [PORT]}. The port comes from the
 * argument, else from {@code NEO4J_TEST_PORT}, else 7687; port 0 picks a free one. Bolt listens on
 * 127.0.0.1 only, auth and HTTP are off, and the data lives in a temporary directory removed at
 * exit, or in {@code NEO4J_TEST_DATA_DIR} when set, kept at exit (so a test can restart the
 * server on the same data: the fault tests do). The page cache is 256 MiB, or
 * {@code NEO4J_TEST_PAGE_CACHE} (e.g. {@code 4g}) for benchmarks at scale. When Bolt accepts connections the launcher prints exactly one line
 * {@code NEO4J_READY bolt://127.0.0.1:PORT version=X} on stdout, which scripts wait for, then runs
 * until SIGTERM/SIGINT, when it shuts the database down cleanly.
 */
public final class Main {
    private static final String HOST = "127.0.0.1";
    private static final String DEFAULT_PAGE_CACHE = "256m";

    private Main() {}

    public static void main(String[] args) throws Exception {
        int port = choosePort(args);
        String keptDir = System.getenv("NEO4J_TEST_DATA_DIR");
        boolean keep = keptDir != null && !keptDir.isBlank();
        Path workDir = Files.createTempDirectory("simplemem-neo4j-");
        SocketAddress bolt = new SocketAddress(HOST, port);

        Neo4j neo4j = Neo4jBuilders.newInProcessBuilder(workDir)
                .withDisabledServer()
                .withConfig(GraphDatabaseSettings.auth_enabled, false)
                .withConfig(BoltConnector.enabled, true)
                .withConfig(BoltConnector.listen_address, bolt)
                // neo4j:// routing asks the server where to connect: it must answer with this address.
                .withConfig(BoltConnector.advertised_address, bolt)
                .withConfig(HttpConnector.enabled, false)
                .withConfig(HttpsConnector.enabled, false)
                .withConfig(GraphDatabaseSettings.pagecache_memory, pageCacheBytes())
                // The harness puts its home in a fresh subdirectory; the data may live elsewhere.
                .withConfig(GraphDatabaseSettings.data_directory,
                        keep ? Files.createDirectories(Path.of(keptDir)).toAbsolutePath() : workDir.resolve("data"))
                .build();

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                neo4j.close();
                if (!keep) {
                    deleteRecursively(workDir);
                }
            } catch (Exception e) {
                System.err.println("NEO4J_SHUTDOWN_ERROR " + e);
            } finally {
                stopped.countDown();
            }
        }, "neo4j-shutdown"));

        System.out.println("NEO4J_READY bolt://" + HOST + ":" + neo4j.boltURI().getPort()
                + " version=" + Version.getNeo4jVersion());
        System.out.flush();
        stopped.await();
    }

    /** Page cache size: NEO4J_TEST_PAGE_CACHE (e.g. 512m, 4g), else 256 MiB (a test database is tiny). */
    private static long pageCacheBytes() {
        String raw = System.getenv().getOrDefault("NEO4J_TEST_PAGE_CACHE", DEFAULT_PAGE_CACHE);
        return ByteUnit.parse(raw.isBlank() ? DEFAULT_PAGE_CACHE : raw.trim());
    }

    /** The Bolt port: argument, else NEO4J_TEST_PORT, else 7687; 0 means any free port. */
    private static int choosePort(String[] args) throws IOException {
        String raw = args.length > 0 ? args[0] : System.getenv().getOrDefault("NEO4J_TEST_PORT", "7687");
        int port;
        try {
            port = Integer.parseInt(raw.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port must be a number 0-65535, got '" + raw + "'", e);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be a number 0-65535, got " + port);
        }
        if (port != 0) {
            return port;
        }
        // Bind to port 0 to let the OS pick, then release it for Neo4j: the advertised address
        // must carry the real port, which Neo4j itself only knows after binding.
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(HOST, 0));
            return socket.getLocalPort();
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}

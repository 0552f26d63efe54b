// Starts a real Neo4j 5.26 Community server (Bolt + HTTP + Neo4j Browser) in this JVM,
// without Docker and without a Neo4j distribution: every jar comes from Maven Central
// (see pom.xml). Run as a single-file source program:
//
//   java -Xmx1g <jvm flags> -cp "$(cat target/classpath.txt)" Launcher.java [HOME_DIR]
//
// scripts/neo4j/start.sh does exactly this. Environment:
//   GRAPHMEM_NEO4J_BOLT_PORT  (default 7687)   Bolt listener on 127.0.0.1
//   GRAPHMEM_NEO4J_HTTP_PORT  (default 7474)   HTTP listener on 127.0.0.1 (Browser at /browser/)
//   GRAPHMEM_NEO4J_PAGECACHE  (default 256m)   server.memory.pagecache.size
//   GRAPHMEM_NEO4J_HOME       (default ./.neo4j/home, overridden by the first argument)
//
// The server is Neo4j's own CommunityBootstrapper (what `neo4j console` runs), so data
// persist in HOME_DIR/data across restarts, auth is off, and SIGTERM/SIGINT trigger
// Neo4j's own clean shutdown (checkpoint, then exit 0).
// Once the database answers a query and both ports accept connections it prints
//   READY bolt://127.0.0.1:7687 http://127.0.0.1:7474

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.server.CommunityBootstrapper;

public class Launcher {
    private static final String HOST = "127.0.0.1";

    public static void main(String[] args) throws Exception {
        int boltPort = intEnv("GRAPHMEM_NEO4J_BOLT_PORT", 7687);
        int httpPort = intEnv("GRAPHMEM_NEO4J_HTTP_PORT", 7474);
        String pageCache = env("GRAPHMEM_NEO4J_PAGECACHE", "256m");
        Path home = Path.of(args.length > 0 ? args[0] : env("GRAPHMEM_NEO4J_HOME", ".neo4j/home"))
                .toAbsolutePath().normalize();
        Files.createDirectories(home);

        for (int port : new int[] {boltPort, httpPort}) {
            if (portOpen(port)) {
                System.err.println("ERROR port " + HOST + ":" + port + " is already in use");
                System.exit(2);
            }
        }

        Map<String, String> cfg = new LinkedHashMap<>();
        cfg.put("server.directories.data", home.resolve("data").toString());
        cfg.put("server.directories.logs", home.resolve("logs").toString());
        cfg.put("server.directories.plugins", home.resolve("plugins").toString());
        cfg.put("server.directories.import", home.resolve("import").toString());
        cfg.put("server.directories.run", home.resolve("run").toString());
        cfg.put("dbms.security.auth_enabled", "false");
        cfg.put("server.default_listen_address", HOST);
        cfg.put("server.default_advertised_address", HOST);
        cfg.put("server.bolt.enabled", "true");
        cfg.put("server.bolt.listen_address", HOST + ":" + boltPort);
        cfg.put("server.bolt.advertised_address", HOST + ":" + boltPort);
        cfg.put("server.bolt.tls_level", "DISABLED");
        cfg.put("server.http.enabled", "true");
        cfg.put("server.http.listen_address", HOST + ":" + httpPort);
        cfg.put("server.http.advertised_address", HOST + ":" + httpPort);
        cfg.put("server.https.enabled", "false");
        cfg.put("server.memory.pagecache.size", pageCache);
        cfg.put("dbms.usage_report.enabled", "false");
        // Small machine: keep transaction logs small.
        cfg.put("db.tx_log.rotation.retention_policy", "2 files");
        // Bolt's Netty event loops otherwise idle 5 s each on shutdown (about 10 s per stop).
        cfg.put("internal.dbms.bolt.netty_server_shutdown_quiet_period", "0");

        long t0 = System.nanoTime();
        CommunityBootstrapper server = new CommunityBootstrapper();
        // Installs Neo4j's SIGTERM/SIGINT handlers and a JVM shutdown hook (clean shutdown).
        int rc = server.start(home, cfg);
        if (rc != 0 || !server.isRunning()) {
            System.err.println("ERROR Neo4j failed to start (code " + rc + "); see " + home.resolve("logs"));
            System.exit(rc != 0 ? rc : 1);
        }

        // The database must answer a query ...
        Object one = server.getDatabaseManagementService().database("neo4j")
                .executeTransactionally("RETURN 1 AS one", Map.of(), r -> r.next().get("one"));
        if (!Long.valueOf(1L).equals(one)) {
            throw new IllegalStateException("unexpected answer to RETURN 1: " + one);
        }
        // ... and both listeners must accept connections.
        waitForPort(boltPort, Duration.ofSeconds(60));
        waitForPort(httpPort, Duration.ofSeconds(60));
        int browserStatus = httpStatus("http://" + HOST + ":" + httpPort + "/browser/");
        if (browserStatus != 200) {
            System.out.println("WARN /browser/ answered HTTP " + browserStatus
                    + " (is org.neo4j.client:neo4j-browser on the classpath?)");
        }

        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.printf("Neo4j started in %.1f s (home %s)%n", secs, home);
        System.out.println("READY bolt://" + HOST + ":" + boltPort + " http://" + HOST + ":" + httpPort);
        System.out.flush();

        // Block forever; Neo4j's signal handler stops the database and exits the JVM.
        new CountDownLatch(1).await();
    }

    private static String env(String name, String dflt) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? dflt : v.trim();
    }

    private static int intEnv(String name, int dflt) {
        return Integer.parseInt(env(name, Integer.toString(dflt)));
    }

    private static boolean portOpen(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(HOST, port), 500);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    private static void waitForPort(int port, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!portOpen(port)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("port " + port + " did not open within " + timeout);
            }
            Thread.sleep(200);
        }
    }

    private static int httpStatus(String url) {
        try {
            HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            HttpRequest req = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build();
            return client.send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return -1;
        }
    }
}

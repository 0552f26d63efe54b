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
//   GRAPHMEM_NEO4J_PASSWORD_FILE (default HOME_DIR/../password)  the neo4j user's password
//   GRAPHMEM_NEO4J_PASSWORD   (optional) use this password instead of the file's; it is
//                             then written to the file, so the file always holds the
//                             password the server has
//
// The server is Neo4j's own CommunityBootstrapper (what `neo4j console` runs), so data
// persist in HOME_DIR/data across restarts, and SIGTERM/SIGINT trigger Neo4j's own clean
// shutdown (checkpoint, then exit 0).
//
// Auth is on: any web page open in a browser on this machine can reach 127.0.0.1 (Bolt
// over WebSocket, the HTTP API), so a password is the only thing between it and the data.
// On first start a random password (SecureRandom) is written to the password file (mode
// 0600) and later starts reuse it. It is handed to Neo4j as data/dbms/auth.ini before the
// listeners open: Neo4j applies that file when it creates the system database, and also
// to a store created with auth off (its neo4j user still has the default password
// "neo4j"), so no start ever listens with neo4j/neo4j. A password that differs from the
// stored one (GRAPHMEM_NEO4J_PASSWORD changed) is set with ALTER USER right after start.
// The password itself is never logged, only the file's path.
// Once the database answers a query and both ports accept connections it prints
//   READY bolt://127.0.0.1:7687 http://127.0.0.1:7474

import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.neo4j.io.fs.DefaultFileSystemAbstraction;
import org.neo4j.kernel.impl.security.User;
import org.neo4j.logging.NullLogProvider;
import org.neo4j.memory.EmptyMemoryTracker;
import org.neo4j.server.CommunityBootstrapper;
import org.neo4j.server.security.SecureHasher;
import org.neo4j.server.security.SystemGraphCredential;
import org.neo4j.server.security.auth.FileUserRepository;

public class Launcher {
    private static final String HOST = "127.0.0.1";
    private static final String USER = "neo4j";
    private static final int MIN_PASSWORD = 8;  // Neo4j's auth_minimum_password_length

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

        Path passwordFile = Path.of(env("GRAPHMEM_NEO4J_PASSWORD_FILE",
                home.getParent().resolve("password").toString())).toAbsolutePath();
        String password = password(passwordFile);
        Path authIni = home.resolve("data").resolve("dbms").resolve("auth.ini");
        writeInitialPassword(authIni, password);

        Map<String, String> cfg = new LinkedHashMap<>();
        cfg.put("server.directories.data", home.resolve("data").toString());
        cfg.put("server.directories.logs", home.resolve("logs").toString());
        cfg.put("server.directories.plugins", home.resolve("plugins").toString());
        cfg.put("server.directories.import", home.resolve("import").toString());
        cfg.put("server.directories.run", home.resolve("run").toString());
        cfg.put("dbms.security.auth_enabled", "true");
        // The HTTP API answered any Origin with "*". Neo4j Browser is served from this
        // origin and speaks Bolt, so it needs no cross-origin access at all.
        cfg.put("dbms.security.http_access_control_allow_origin", "http://" + HOST + ":" + httpPort);
        cfg.put("server.default_listen_address", HOST);
        cfg.put("server.default_advertised_address", HOST);
        cfg.put("server.bolt.enabled", "true");
        cfg.put("server.bolt.listen_address", HOST + ":" + boltPort);
        cfg.put("server.bolt.advertised_address", HOST + ":" + boltPort);
        // Plain Bolt: it only listens on loopback, which never leaves this machine, and
        // whoever can read loopback traffic can also read the password file.
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

        setPassword(server, password);
        // auth.ini is only read at start-up; the password now lives in the system database.
        Files.deleteIfExists(authIni);

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
        System.out.println("auth: user " + USER + ", password in " + passwordFile);
        System.out.println("READY bolt://" + HOST + ":" + boltPort + " http://" + HOST + ":" + httpPort);
        System.out.flush();

        // Block forever; Neo4j's signal handler stops the database and exits the JVM.
        new CountDownLatch(1).await();
    }

    /** GRAPHMEM_NEO4J_PASSWORD, else the file's, else a new random one; kept in the file. */
    private static String password(Path file) throws Exception {
        String given = System.getenv("GRAPHMEM_NEO4J_PASSWORD");
        String stored = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8).strip() : null;
        String password;
        if (given != null && !given.isEmpty()) {
            password = given;
        } else if (stored != null && !stored.isEmpty()) {
            password = stored;
        } else {
            byte[] bytes = new byte[24];
            new SecureRandom().nextBytes(bytes);
            password = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        }
        if (password.codePointCount(0, password.length()) < MIN_PASSWORD) {
            System.err.println("ERROR GRAPHMEM_NEO4J_PASSWORD is shorter than " + MIN_PASSWORD
                    + " characters, which Neo4j refuses");
            System.exit(2);
        }
        if (!password.equals(stored)) {
            // Written under a temporary name with mode 0600, then renamed: the password is
            // never readable by others, not even for a moment.
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.deleteIfExists(tmp);
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(tmp, password + "\n", StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return password;
    }

    /** data/dbms/auth.ini as `neo4j-admin dbms set-initial-password` writes it. */
    private static void writeInitialPassword(Path authIni, String password) throws Exception {
        Files.createDirectories(authIni.getParent());
        Files.deleteIfExists(authIni);
        var fs = new DefaultFileSystemAbstraction();
        var users = new FileUserRepository(fs, authIni, NullLogProvider.getInstance(), EmptyMemoryTracker.INSTANCE);
        users.start();
        var credential = SystemGraphCredential.createCredentialForPassword(
                password.getBytes(StandardCharsets.UTF_8), new SecureHasher());
        users.create(new User(USER, null, credential, false, false));
        users.shutdown();
        Files.setPosixFilePermissions(authIni, PosixFilePermissions.fromString("rw-------"));
    }

    /** Sets the password when the stored one differs (the initial file only replaces "neo4j"). */
    private static void setPassword(CommunityBootstrapper server, String password) {
        try {
            server.getDatabaseManagementService().database("system").executeTransactionally(
                    "ALTER USER " + USER + " SET PASSWORD $pw CHANGE NOT REQUIRED", Map.of("pw", password));
        } catch (RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            if (!message.contains("cannot be the same")) {  // already this password
                throw new IllegalStateException("could not set the password of user " + USER + ": " + message, e);
            }
        }
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

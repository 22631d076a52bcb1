package dev.cinchmcp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cinchmcp.testkit.Await;
import dev.cinchmcp.testkit.JarProcess;
import dev.cinchmcp.testkit.TestHomes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A downloaded jar learns to start fast by itself: its first plain {@code java -jar} runs the
 * server in the one JVM and has a separate process make a class-data archive in the user's cache;
 * every later plain start finds it and restarts itself with the fast launch's options and that
 * archive. Each test gets the jar alone in an empty folder and a fresh HOME, as a user who just
 * downloaded it. Either way the client sees one server and nothing but JSON-RPC on stdout.
 */
class FastStartIT {

  private static final String INIT =
      "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
          + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n";
  private static final Path TEMURIN_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64/bin/java");
  private static final Duration TRAINING = Duration.ofSeconds(90);

  private Path root;
  private Path home;
  private Path jar;

  @BeforeEach
  void aJarAloneInAnEmptyFolderAndAFreshHome() throws IOException {
    // Not below /tmp: a world-writable level anywhere above the cache is refused.
    root = TestHomes.base().resolve("it-fast-start").resolve(UUID.randomUUID().toString());
    home = Files.createDirectories(root.resolve("home"));
    jar = Files.createDirectories(root.resolve("download")).resolve("cinch-mcp.jar");
    Files.copy(JarProcess.jar(), jar);
  }

  @AfterEach
  void removeTheFolders() throws IOException {
    // A trained archive is read-only (0400); its folders are ours, so the tree can go.
    try (Stream<Path> files = Files.walk(root)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** One start: sends initialize, checks the reply and stdout, returns the child JVM's command. */
  private Optional<String> start(String java, Map<String, String> extraEnv) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(java, "-jar", jar.toString());
    pb.directory(jar.getParent().toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("CINCH_") || k.startsWith("XDG_"));
    pb.environment().put("HOME", home.toString());
    pb.environment().put("CINCH_API_KEY", JarProcess.KEY);
    pb.environment().put("CINCH_BASE_URL", "http://127.0.0.1:9");
    pb.environment().putAll(extraEnv);
    pb.redirectError(ProcessBuilder.Redirect.DISCARD);
    Process p = pb.start();
    try {
      p.getOutputStream().write(INIT.getBytes(StandardCharsets.UTF_8));
      p.getOutputStream().flush();
      InputStream stdout = p.getInputStream();
      String line = readLine(stdout);
      JsonNode reply = JarProcess.JSON.readTree(line);
      assertEquals("cinch-mcp", reply.at("/result/serverInfo/name").asText(), line);
      // The fast JVM, if it restarted itself: its child (a first start's child is the trainer,
      // which does not count).
      Optional<String> child =
          Stream.concat(Stream.of(p.toHandle()), p.toHandle().children())
              .flatMap(h -> h.info().commandLine().stream())
              .filter(c -> c.contains("-Dcinch.faststart.child=true"))
              .findFirst();
      p.getOutputStream().close();
      String rest = new String(stdout.readAllBytes(), StandardCharsets.UTF_8);
      assertEquals("", rest, "stdout holds the one reply and nothing else");
      assertTrue(p.waitFor(30, TimeUnit.SECONDS));
      assertEquals(0, p.exitValue());
      return child;
    } finally {
      p.destroyForcibly();
    }
  }

  private Optional<String> start() throws Exception {
    return start(JarProcess.java(), Map.of());
  }

  private static String readLine(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int b; (b = in.read()) != -1 && b != '\n'; ) {
      sb.append((char) b);
    }
    return sb.toString();
  }

  private Path archives() {
    return home.resolve(".cache/cinch-mcp/archives");
  }

  private List<Path> archiveFiles() throws IOException {
    if (!Files.isDirectory(archives())) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(archives())) {
      return files
          .filter(f -> f.toString().endsWith(".jsa") || f.toString().endsWith(".aot"))
          .sorted()
          .toList();
    }
  }

  /** Waits (polling, bounded) until the training process has renamed an archive into place. */
  private Path awaitArchive(int count) throws Exception {
    return Await.untilPresent(
        () -> {
          List<Path> files = archiveFiles();
          return files.size() >= count
              ? Optional.of(files.get(files.size() - 1))
              : Optional.empty();
        },
        TRAINING,
        "an archive in " + archives());
  }

  @Test
  void theFirstStartMakesTheArchiveAndTheNextUsesIt() throws Exception {
    assertTrue(start().isEmpty(), "the first start has no archive yet and runs in one JVM");
    Path archive = awaitArchive(1);

    Optional<String> child = start();
    assertTrue(child.isPresent(), "the second plain start restarts with the archive");
    assertTrue(child.get().contains("-XX:SharedArchiveFile=" + archive), child.get());
    assertTrue(child.get().contains("-XX:+ExitOnOutOfMemoryError"), child.get());
    assertEquals(1, archiveFiles().size());
    try (Stream<Path> left = Files.list(archives())) {
      assertFalse(left.anyMatch(f -> f.toString().endsWith(".tmp")), "no half-made file is left");
    }
  }

  @Test
  void theCacheIsThisUsersAlone() throws Exception {
    start();
    Path archive = awaitArchive(1);
    for (Path level :
        List.of(home.resolve(".cache"), home.resolve(".cache/cinch-mcp"), archives())) {
      assertEquals("rwx------", perms(level), level.toString());
    }
    assertEquals("r--------", perms(archive));
  }

  @Test
  void aChangedJarMakesANewArchive() throws Exception {
    start();
    Path first = awaitArchive(1);
    Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() - 60_000));

    assertTrue(start().isEmpty(), "an archive of the old jar is not used");
    awaitArchive(2);
    Path second = archiveFiles().stream().filter(f -> !f.equals(first)).findFirst().orElseThrow();
    assertNotEquals(first, second);
    assertTrue(start().isPresent());
  }

  @Test
  void anArchiveNoStartUsedForAMonthGoesWhenAnotherIsMade() throws Exception {
    start();
    Path old = awaitArchive(1);
    FileTime fortyDaysAgo = FileTime.from(Instant.now().minus(Duration.ofDays(40)));
    Files.setLastModifiedTime(old, fortyDaysAgo);
    assertTrue(start().isPresent(), "the archive is used");
    assertTrue(
        Files.getLastModifiedTime(old).toInstant().isAfter(Instant.now().minusSeconds(600)),
        "a start that uses an archive marks it used");

    Files.setLastModifiedTime(old, fortyDaysAgo);
    Files.setLastModifiedTime(jar, FileTime.fromMillis(System.currentTimeMillis() - 60_000));
    assertTrue(start().isEmpty(), "the changed jar has no archive yet");
    Await.holdsWithin(
        () -> {
          List<Path> now = archiveFiles();
          return now.size() == 1 && !now.contains(old);
        },
        TRAINING);
    List<Path> files = archiveFiles();
    assertEquals(1, files.size(), "only the new jar's archive is left: " + files);
    assertFalse(files.contains(old));
    assertFalse(Files.exists(old.resolveSibling(old.getFileName() + ".log")), "nor the old log");
    assertTrue(start().isPresent(), "the new archive is used");
  }

  @Test
  void anotherJvmMakesItsOwn() throws Exception {
    assumeTrue(Files.isExecutable(TEMURIN_25), "needs a second JDK at " + TEMURIN_25);
    start();
    Path java17 = awaitArchive(1);

    assertTrue(start(TEMURIN_25.toString(), Map.of()).isEmpty(), "17's archive is not 25's");
    awaitArchive(2);
    Path java25 = archiveFiles().stream().filter(f -> !f.equals(java17)).findFirst().orElseThrow();
    assertTrue(java25.toString().endsWith(".aot"), "Java 25 makes an AOT cache: " + java25);
    Optional<String> child = start(TEMURIN_25.toString(), Map.of());
    assertTrue(
        child.isPresent() && child.get().contains("-XX:AOTCache=" + java25), child.toString());
  }

  @Test
  void twoFirstStartsAtOnceMakeOneArchive() throws Exception {
    List<Thread> starts = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < 2; i++) {
      Thread t =
          new Thread(
              () -> {
                try {
                  start();
                } catch (Throwable e) {
                  failures.add(e);
                }
              });
      t.start();
      starts.add(t);
    }
    for (Thread t : starts) {
      t.join();
    }
    assertEquals(List.of(), failures);
    awaitArchive(1);
    assertEquals(1, archiveFiles().size());
    assertTrue(start().isPresent(), "the archive the two made is sound");
  }

  @Test
  void anArchiveOfAnotherUserIsNotUsed() throws Exception {
    assumeTrue("root".equals(System.getProperty("user.name")), "needs root to chown");
    start();
    Path archive = awaitArchive(1);
    UserPrincipal nobody =
        archive.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
    Files.setOwner(archive, nobody);

    assertTrue(start().isEmpty(), "a planted archive is never mapped");
  }

  @Test
  void aSymbolicLinkInThePathIsRefused() throws Exception {
    start();
    awaitArchive(1);
    Path real = Files.move(home.resolve(".cache"), home.resolve("elsewhere"));
    Files.createSymbolicLink(home.resolve(".cache"), real);

    assertTrue(start().isEmpty(), "a cache reached through a link is not trusted");
  }

  @Test
  void noCacheUnderTmpAndNothingBreaks() throws Exception {
    home = Files.createTempDirectory("cinch-home"); // /tmp is writable by everyone
    assertTrue(start().isEmpty());
    assertFalse(Files.exists(home.resolve(".cache")), "nothing is written below /tmp");
  }

  @Test
  void turnedOffItRunsInOneJvmAndMakesNothing() throws Exception {
    assertTrue(start(JarProcess.java(), Map.of("CINCH_FAST_START", "0")).isEmpty());
    assertFalse(Files.exists(archives()));
  }

  @Test
  void theUsersOwnJvmOptionsAreKept() throws Exception {
    start();
    awaitArchive(1);
    Map<String, String> env = new HashMap<>();
    env.put("JDK_JAVA_OPTIONS", "-Xmx200m");
    assertTrue(start(JarProcess.java(), env).isEmpty(), "options from the environment count");
  }

  private static String perms(Path p) throws IOException {
    return java.nio.file.attribute.PosixFilePermissions.toString(
        Files.getPosixFilePermissions(p, java.nio.file.LinkOption.NOFOLLOW_LINKS));
  }
}

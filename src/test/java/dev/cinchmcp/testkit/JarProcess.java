package dev.cinchmcp.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.backend.DaemonThreads;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The built jar, started as a real subprocess and driven over its real stdin/stdout with raw
 * JSON-RPC lines. Every line the jar writes to stdout is kept, so a test can assert that all of
 * them were JSON-RPC messages; stderr is kept too, to check what was logged.
 */
public final class JarProcess implements AutoCloseable {

  public static final ObjectMapper JSON = new ObjectMapper();
  public static final String KEY = "cinch_live_e2e_9b1f3c7d2a";

  private final Process process;
  private final OutputStream stdin;
  private final List<String> stdoutLines = new CopyOnWriteArrayList<>();
  private final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();
  private final StringBuffer stderr = new StringBuffer();
  private final List<JsonNode> seen = new ArrayList<>();

  private JarProcess(Process process, boolean readStdout) {
    this.process = process;
    this.stdin = process.getOutputStream();
    if (readStdout) {
      DaemonThreads.start("jar-stdout", () -> readLines(process.getInputStream(), this::onStdout));
    }
    DaemonThreads.start(
        "jar-stderr",
        () -> readLines(process.getErrorStream(), l -> stderr.append(l).append('\n')));
  }

  /** What a jar that ran to its end printed, and its exit code. */
  public record Exited(int exitCode, String out, String err) {
    /** True when this text was printed on stdout or stderr. */
    public boolean shows(String secret) {
      return out.contains(secret) || err.contains(secret);
    }
  }

  /**
   * Runs the jar to its end, as a command-line tool: {@code java -jar JAR args}, with the build's
   * environment less its CINCH_ variables plus {@code env}, {@code stdin} written and closed. At
   * most 60 s.
   */
  public static Exited run(Path jar, Map<String, String> env, String stdin, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(java(), "-jar", jar.toString()));
    command.addAll(List.of(args));
    Path dir = Files.createTempDirectory("cinch-jar-it");
    Path out = dir.resolve("out");
    Path err = dir.resolve("err");
    ProcessBuilder builder =
        new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    builder
        .environment()
        .keySet()
        .removeIf(name -> name.startsWith("CINCH_")); // only what the test says
    builder.environment().putAll(env);
    Process process = builder.start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(stdin.getBytes(StandardCharsets.UTF_8));
    }
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the jar did not exit within 60 s: " + command);
    }
    Exited result = new Exited(process.exitValue(), Files.readString(out), Files.readString(err));
    Files.delete(out);
    Files.delete(err);
    Files.delete(dir);
    return result;
  }

  /** The built jar: the system property cinch.jar (failsafe sets it), else target/cinch-mcp.jar. */
  public static Path jar() {
    String path = System.getProperty("cinch.jar", "target/cinch-mcp.jar");
    Path jar = Path.of(path).toAbsolutePath();
    assertTrue(
        Files.isRegularFile(jar),
        "the built jar is missing: " + jar + " (run ./mvnw package first)");
    return jar;
  }

  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** Starts {@code java -jar cinch-mcp.jar} with exactly this environment (plus PATH). */
  public static JarProcess start(Map<String, String> env) throws IOException {
    return start(env, List.of(), true);
  }

  /**
   * Starts the jar and never reads its stdout: a client that stopped reading. Once the pipe's
   * buffer is full, every write to stdout blocks.
   */
  public static JarProcess startNotReadingStdout(Map<String, String> env) throws IOException {
    return start(env, List.of(), false);
  }

  /** Starts the jar with the fast launch's JVM options (jvm-options.txt) and no archive. */
  public static JarProcess startFast(Map<String, String> env) throws IOException {
    return startFast(env, List.of());
  }

  /**
   * As {@link #startFast(Map)}, with these JVM options after the fast launch's own (where the last
   * of an option wins).
   */
  public static JarProcess startFast(Map<String, String> env, List<String> moreJvmArgs)
      throws IOException {
    List<String> args = new ArrayList<>(dev.cinchmcp.launch.LaunchOptions.fast());
    args.addAll(moreJvmArgs);
    args.add("-Dcinch.faststart.child=true");
    return start(env, args);
  }

  /** Starts the jar with these JVM options before {@code -jar}. */
  public static JarProcess start(Map<String, String> env, List<String> jvmArgs) throws IOException {
    return start(env, jvmArgs, true);
  }

  private static JarProcess start(Map<String, String> env, List<String> jvmArgs, boolean readStdout)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(java());
    command.addAll(jvmArgs);
    command.add("-jar");
    command.add(jar().toString());
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().clear();
    pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    // Where the jar keeps the archive it makes for itself: never the real home of the build's user.
    pb.environment().put("HOME", TestHomes.shared().toString());
    pb.environment().putAll(env);
    return new JarProcess(pb.start(), readStdout);
  }

  /**
   * Starts a jar as a user does: plain {@code java -jar cinch-mcp.jar} in the jar's folder, with
   * this HOME and environment (plus PATH) and nothing of the build's.
   */
  public static JarProcess startAsUser(Path jar, Path home, Map<String, String> env)
      throws IOException {
    ProcessBuilder pb = new ProcessBuilder(java(), "-jar", jar.toString());
    pb.directory(jar.getParent().toFile());
    pb.environment().clear();
    pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    pb.environment().put("HOME", home.toString());
    pb.environment().putAll(env);
    return new JarProcess(pb.start(), true);
  }

  /** Whether this is the fast launch: a launcher JVM running the server in a child JVM. */
  public boolean isFastLaunch() {
    return process
        .toHandle()
        .children()
        .anyMatch(h -> h.info().commandLine().orElse("").contains("-Dcinch.faststart.child=true"));
  }

  /**
   * The exit status a stop by SIGTERM or SIGINT gives a server stopped with nothing of its own left
   * blocked: 0 from a server in one JVM, which halts; SIGKILL's 137 from the fast launch's
   * launcher, which passes the stop on to its child and ends itself at once without waiting for it.
   */
  public int cleanStopStatus() {
    return isFastLaunch() ? 137 : 0;
  }

  /** The server's process and all it started, as they are now. */
  public List<ProcessHandle> tree() {
    List<ProcessHandle> tree = new ArrayList<>();
    tree.add(process.toHandle());
    process.toHandle().descendants().forEach(tree::add);
    return tree;
  }

  public static Map<String, String> envFor(String baseUrl) {
    return Map.of("CINCH_API_KEY", KEY, "CINCH_BASE_URL", baseUrl, "CINCH_TIMEOUT_MS", "20000");
  }

  public Process process() {
    return process;
  }

  public void send(String line) throws IOException {
    stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  public void sendRaw(byte[] bytes) throws IOException {
    stdin.write(bytes);
    stdin.flush();
  }

  public void closeStdin() throws IOException {
    stdin.close();
  }

  /** initialize + notifications/initialized, checking the reply. */
  public JsonNode initialize() throws Exception {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}}");
    JsonNode reply = awaitReply("init", Duration.ofSeconds(20));
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    return reply;
  }

  /**
   * This server once {@link #initialize initialized}, for a try-with-resources; a server that does
   * not initialize is closed, so that a failed start leaves nothing running.
   */
  public JarProcess initialized() throws Exception {
    try {
      initialize();
      return this;
    } catch (Exception | AssertionError e) {
      close();
      throw e;
    }
  }

  public static String call(Object id, String code) {
    return call(id, code, null);
  }

  public static String call(Object id, String code, Object progressToken) {
    try {
      String meta =
          progressToken == null
              ? ""
              : ",\"_meta\":{\"progressToken\":" + JSON.writeValueAsString(progressToken) + "}";
      return "{\"jsonrpc\":\"2.0\",\"id\":"
          + JSON.writeValueAsString(id)
          + ",\"method\":\"tools/call\",\"params\":{"
          + "\"name\":\"execute_code\",\"arguments\":{\"code\":"
          + JSON.writeValueAsString(code)
          + "}"
          + meta
          + "}}";
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A tools/call of execute_code with these arguments (code, language, stdin, files, args). */
  public static String call(Object id, Map<String, Object> arguments) {
    try {
      return JSON.writeValueAsString(
          Map.of(
              "jsonrpc",
              "2.0",
              "id",
              id,
              "method",
              "tools/call",
              "params",
              Map.of("name", "execute_code", "arguments", arguments)));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Ends the session as a client does (closes stdin); the server must exit 0 and have written only
   * JSON-RPC. Then nothing of it is left.
   */
  public void closeCleanly() throws InterruptedException {
    try {
      closeStdin();
    } catch (IOException alreadyGone) {
      // waitForExit says how it ended
    }
    assertEquals(0, waitForExit(Duration.ofSeconds(30)), stderr());
    assertProtocolClean();
    close();
  }

  /** The reply (result or error) to the request with this id. */
  public JsonNode awaitReply(Object id, Duration timeout) throws InterruptedException {
    JsonNode wanted = JSON.valueToTree(id);
    return await(
        m -> m.has("id") && !m.has("method") && m.get("id").equals(wanted),
        timeout,
        "a reply to id " + id);
  }

  /** The first message (seen earlier or arriving later) that matches. */
  public JsonNode await(Predicate<JsonNode> match, Duration timeout, String what)
      throws InterruptedException {
    synchronized (seen) {
      for (JsonNode m : seen) {
        if (match.test(m)) {
          return m;
        }
      }
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      JsonNode m = left > 0 ? messages.poll(left, TimeUnit.NANOSECONDS) : null;
      if (m == null) {
        fail(
            "timed out after "
                + timeout.toMillis()
                + " ms waiting for "
                + what
                + "; stderr:\n"
                + stderr);
      }
      if (match.test(m)) {
        return m;
      }
    }
  }

  /** Every message received so far, in order. */
  public List<JsonNode> received() {
    synchronized (seen) {
      return List.copyOf(seen);
    }
  }

  private void record(JsonNode m) {
    synchronized (seen) {
      seen.add(m);
    }
  }

  public int waitForExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      fail("the server did not exit within " + timeout.toMillis() + " ms; stderr:\n" + stderr);
    }
    return process.exitValue();
  }

  public String stderr() {
    return stderr.toString();
  }

  public List<String> stdoutLines() {
    return List.copyOf(stdoutLines);
  }

  /** Nothing was written for the request with this string id: no result, no error. */
  public void assertNoReplyTo(String id, String why) {
    assertTrue(received().stream().noneMatch(m -> id.equals(m.path("id").asText(null))), why);
  }

  /** Every line on stdout was one JSON-RPC 2.0 message, and the key appeared nowhere. */
  public void assertProtocolClean() {
    for (String line : stdoutLines) {
      assertTrue(
          line.chars().noneMatch(c -> c == 0x2028 || c == 0x2029 || c == 0x85),
          "stdout carried a raw U+2028, U+2029 or U+0085, a line end to some clients: "
              + abbreviate(line));
      JsonNode node;
      try {
        node = JSON.readTree(line);
      } catch (IOException e) {
        throw new AssertionError("stdout carried a line that is not JSON: " + abbreviate(line));
      }
      assertTrue(
          node != null && node.isObject(), "stdout carried a non-object line: " + abbreviate(line));
      assertEquals(
          "2.0", node.path("jsonrpc").asText(), "not a JSON-RPC 2.0 message: " + abbreviate(line));
      assertTrue(
          node.has("method") || node.has("result") || node.has("error"),
          "not a JSON-RPC message: " + abbreviate(line));
      assertTrue(!line.contains(KEY), "the API key appeared on stdout");
    }
    assertTrue(!stderr.toString().contains(KEY), "the API key appeared on stderr");
  }

  private static String abbreviate(String line) {
    return line.length() > 200 ? line.substring(0, 200) + "..." : line;
  }

  private void onStdout(String line) {
    stdoutLines.add(line);
    try {
      JsonNode node = JSON.readTree(line);
      if (node != null) {
        record(node); // before the queue, so a waiter woken by it sees it in received()
        messages.add(node);
      }
    } catch (IOException notJson) {
      // kept in stdoutLines; assertProtocolClean reports it
    }
  }

  /** Hands each line of the stream to {@code line}, until the process ends. */
  private static void readLines(InputStream stream, Consumer<String> line) {
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
      String next;
      while ((next = r.readLine()) != null) {
        line.accept(next);
      }
    } catch (IOException ignored) {
      // the process ended
    }
  }

  @Override
  public void close() {
    // A fast launch's child first: it would stop on its own once its launcher is gone, but a test
    // must leave nothing behind even for that long.
    process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
  }
}

package dev.cinchmcp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
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
import java.util.function.Predicate;

/**
 * The built jar, started as a real subprocess and driven over its real stdin/stdout with raw
 * JSON-RPC lines. Every line the jar writes to stdout is kept, so a test can assert that all of
 * them were JSON-RPC messages; stderr is kept too, to check what was logged.
 */
final class JarProcess implements AutoCloseable {

  static final ObjectMapper JSON = new ObjectMapper();
  static final String KEY = "cinch_live_e2e_9b1f3c7d2a";

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
      Thread out = new Thread(this::readStdout, "jar-stdout");
      out.setDaemon(true);
      out.start();
    }
    Thread err = new Thread(this::readStderr, "jar-stderr");
    err.setDaemon(true);
    err.start();
  }

  static Path jar() {
    String path = System.getProperty("cinch.jar", "target/cinch-mcp.jar");
    Path jar = Path.of(path).toAbsolutePath();
    assertTrue(
        Files.isRegularFile(jar),
        "the built jar is missing: " + jar + " (run ./mvnw package first)");
    return jar;
  }

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** Starts {@code java -jar cinch-mcp.jar} with exactly this environment (plus PATH). */
  static JarProcess start(Map<String, String> env) throws IOException {
    return start(env, List.of(), true);
  }

  /**
   * Starts the jar and never reads its stdout: a client that stopped reading. Once the pipe's
   * buffer is full, every write to stdout blocks.
   */
  static JarProcess startNotReadingStdout(Map<String, String> env) throws IOException {
    return start(env, List.of(), false);
  }

  /** Starts the jar with the fast launch's JVM options (jvm-options.txt) and no archive. */
  static JarProcess startFast(Map<String, String> env) throws IOException {
    List<String> args = new ArrayList<>(dev.cinchmcp.launch.LaunchOptions.fast());
    args.add("-Dcinch.faststart.child=true");
    return start(env, args);
  }

  /** Starts the jar with these JVM options before {@code -jar}. */
  static JarProcess start(Map<String, String> env, List<String> jvmArgs) throws IOException {
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
  static JarProcess startAsUser(Path jar, Path home, Map<String, String> env) throws IOException {
    ProcessBuilder pb = new ProcessBuilder(java(), "-jar", jar.toString());
    pb.directory(jar.getParent().toFile());
    pb.environment().clear();
    pb.environment().put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    pb.environment().put("HOME", home.toString());
    pb.environment().putAll(env);
    return new JarProcess(pb.start(), true);
  }

  /** The server's process and all it started, as they are now. */
  List<ProcessHandle> tree() {
    List<ProcessHandle> tree = new ArrayList<>();
    tree.add(process.toHandle());
    process.toHandle().descendants().forEach(tree::add);
    return tree;
  }

  static Map<String, String> envFor(String baseUrl) {
    return Map.of("CINCH_API_KEY", KEY, "CINCH_BASE_URL", baseUrl, "CINCH_TIMEOUT_MS", "20000");
  }

  Process process() {
    return process;
  }

  void send(String line) throws IOException {
    stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    stdin.flush();
  }

  void sendRaw(byte[] bytes) throws IOException {
    stdin.write(bytes);
    stdin.flush();
  }

  void closeStdin() throws IOException {
    stdin.close();
  }

  /** initialize + notifications/initialized, checking the reply. */
  JsonNode initialize() throws Exception {
    send(
        "{\"jsonrpc\":\"2.0\",\"id\":\"init\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
            + "\"capabilities\":{},\"clientInfo\":{\"name\":\"e2e\",\"version\":\"1\"}}}");
    JsonNode reply = awaitReply("init", Duration.ofSeconds(20));
    send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
    return reply;
  }

  static String call(Object id, String code) {
    return call(id, code, null);
  }

  static String call(Object id, String code, Object progressToken) {
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

  /** The reply (result or error) to the request with this id. */
  JsonNode awaitReply(Object id, Duration timeout) throws InterruptedException {
    JsonNode wanted = JSON.valueToTree(id);
    return await(
        m -> m.has("id") && !m.has("method") && m.get("id").equals(wanted),
        timeout,
        "a reply to id " + id);
  }

  /** The first message (seen earlier or arriving later) that matches. */
  JsonNode await(Predicate<JsonNode> match, Duration timeout, String what)
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
  List<JsonNode> received() {
    synchronized (seen) {
      return List.copyOf(seen);
    }
  }

  private void record(JsonNode m) {
    synchronized (seen) {
      seen.add(m);
    }
  }

  int waitForExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      fail("the server did not exit within " + timeout.toMillis() + " ms; stderr:\n" + stderr);
    }
    return process.exitValue();
  }

  String stderr() {
    return stderr.toString();
  }

  List<String> stdoutLines() {
    return List.copyOf(stdoutLines);
  }

  /** Every line on stdout was one JSON-RPC 2.0 message, and the key appeared nowhere. */
  void assertProtocolClean() {
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

  private void readStdout() {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
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
    } catch (IOException ignored) {
      // the process ended
    }
  }

  private void readStderr() {
    try (BufferedReader r =
        new BufferedReader(
            new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        stderr.append(line).append('\n');
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

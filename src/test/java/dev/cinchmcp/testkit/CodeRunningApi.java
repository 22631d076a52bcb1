package dev.cinchmcp.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cinchmcp.backend.cinch.CinchApiRunner;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A stand-in for the Cinch API that really runs what is posted to {@code /run}, with the host's
 * python3 or node: so a launcher's work (files, stdin, args, exit status) or a jar's whole path is
 * checked end to end over real HTTP. Each program gets a fresh, private, size-limited {@code /tmp}
 * of its own (a tmpfs in a new mount namespace, {@code unshare -m}, which needs root: mark the test
 * {@code @Requires(PRIVATE_TMP)}), like the service's box, so runs never see each other's files or
 * the host's /tmp. Tests only: it is not a sandbox.
 *
 * <p>Options: {@link #withTmp} (the size of each run's /tmp, 64m as in the service by default) and
 * {@link #cuttingStdoutAt} (a service with an output limit; the real one's is not on record).
 */
public final class CodeRunningApi implements AutoCloseable, BeforeAllCallback, AfterAllCallback {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long TIME_LIMIT_SECONDS = 10;

  private HttpServer server;
  private ExecutorService threads;
  private Path runs;
  private String tmpSize = "64m";
  private int stdoutLimit = Integer.MAX_VALUE;
  private final List<String> bodies = new CopyOnWriteArrayList<>();
  private CinchRunners runners;
  private CinchApiRunner runner;

  /**
   * Each run with a 64 MB /tmp, its stdout answered whole. As a JUnit extension in a static field
   * it starts before the class's tests and stops after them; otherwise {@link #start} and {@link
   * #close}.
   */
  public CodeRunningApi() {}

  /** Each run's /tmp is this size ("1m", "64m"). */
  public CodeRunningApi withTmp(String size) {
    this.tmpSize = size;
    return this;
  }

  /** The answer's stdout is cut at this many characters. */
  public CodeRunningApi cuttingStdoutAt(int characters) {
    this.stdoutLimit = characters;
    return this;
  }

  /** Starts serving on a loopback port. */
  public synchronized CodeRunningApi start() throws IOException {
    if (server == null) {
      runs = Files.createDirectories(Path.of("target", "code-running-api").toAbsolutePath());
      threads = Executors.newFixedThreadPool(2);
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext("/run", this::handle);
      server.setExecutor(threads);
      server.start();
    }
    return this;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    start();
  }

  @Override
  public void afterAll(ExtensionContext context) {
    close();
  }

  /** http://127.0.0.1:PORT, what CINCH_BASE_URL is set to. */
  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public URI runUri() {
    return URI.create(baseUrl() + "/run");
  }

  /** The real Cinch runner sending to this API, with a 30 s timeout (one, made on first use). */
  public synchronized CinchApiRunner runner() {
    if (runner == null) {
      runners = new CinchRunners();
      runner = runners.runner(runUri(), Duration.ofSeconds(30));
    }
    return runner;
  }

  /** Every request body received, as sent. */
  public List<String> bodies() {
    return List.copyOf(bodies);
  }

  /** How many requests arrived. */
  public int requests() {
    return bodies.size();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String raw = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      bodies.add(raw);
      JsonNode body = JSON.readTree(raw);
      boolean python = !"javascript".equals(body.path("language").asText("python"));
      Path dir = Files.createTempDirectory(runs, "run");
      try {
        Path code =
            Files.writeString(
                dir.resolve(python ? "main.py" : "main.js"), body.path("code").asText());
        // The run's folder is seen at /mnt inside the run: the fresh /tmp would hide it when the
        // project itself lies under /tmp (a clean clone's usual place).
        reply(exchange, run(dir, python ? "python3" : "node", "/mnt/" + code.getFileName()));
      } finally {
        try (var files = Files.walk(dir)) {
          files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
    } catch (InterruptedException | RuntimeException e) {
      byte[] text = e.toString().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(500, text.length);
      exchange.getResponseBody().write(text);
    }
  }

  private ObjectNode run(Path dir, String interpreter, String file)
      throws IOException, InterruptedException {
    Path out = dir.resolve("stdout");
    Path err = dir.resolve("stderr");
    // sh shows the run's folder at /mnt and mounts the fresh /tmp (both only in this mount
    // namespace, whose mounts are private), then becomes the interpreter; stdin is empty, as at
    // the service.
    List<String> argv =
        new ArrayList<>(
            List.of(
                "unshare",
                "-m",
                "sh",
                "-c",
                "mount --bind \"$0\" /mnt && mount -t tmpfs -o size="
                    + tmpSize
                    + " tmpfs /tmp && cd /tmp && exec \"$@\"",
                dir.toString(),
                interpreter,
                file));
    long started = System.nanoTime();
    Process process =
        new ProcessBuilder(argv)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    boolean timedOut = !process.waitFor(TIME_LIMIT_SECONDS, TimeUnit.SECONDS);
    if (timedOut) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor();
    }
    String stdout = Files.readString(out, StandardCharsets.UTF_8);
    ObjectNode answer = JSON.createObjectNode();
    answer.put("stdout", stdout.length() > stdoutLimit ? stdout.substring(0, stdoutLimit) : stdout);
    answer.put("stderr", Files.readString(err, StandardCharsets.UTF_8));
    if (timedOut) {
      answer.putNull("exitCode");
    } else {
      answer.put("exitCode", process.exitValue());
    }
    answer.put("timedOut", timedOut);
    answer.put("durationMs", (System.nanoTime() - started) / 1_000_000);
    return answer;
  }

  private static void reply(HttpExchange exchange, ObjectNode answer) throws IOException {
    byte[] bytes = JSON.writeValueAsBytes(answer);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, bytes.length);
    try (OutputStream body = exchange.getResponseBody()) {
      body.write(bytes);
    }
  }

  @Override
  public synchronized void close() {
    if (runner != null) {
      runner.close();
      runners.close();
      runner = null;
    }
    if (server != null) {
      server.stop(0);
      threads.shutdownNow();
      server = null;
    }
  }
}

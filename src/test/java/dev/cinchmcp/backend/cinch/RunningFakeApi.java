package dev.cinchmcp.backend.cinch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cinchmcp.testkit.CinchRunners;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for the Cinch API that really runs what is posted to {@code /run}, with the host's
 * python3 or node: so the launcher's work (files, stdin, args, exit status) is checked end to end
 * over real HTTP. Tests only: it is not a sandbox. Each program gets a fresh, private, size-limited
 * {@code /tmp} of its own (a tmpfs in a new mount namespace, {@code unshare -m}, which needs root),
 * like the service's box, so runs never see each other's files or the host's /tmp.
 */
final class RunningFakeApi implements AutoCloseable {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long TIME_LIMIT_SECONDS = 10;

  private final HttpServer server;
  private final Path runs;
  private final String tmpSize;
  private final AtomicInteger requests = new AtomicInteger();
  private final CinchRunners runners = new CinchRunners();
  private final CinchApiRunner runner;

  /**
   * One under target/, with the real Cinch runner pointed at it. Its test class is marked {@link
   * dev.cinchmcp.testkit.RequiresPrivateTmp}.
   *
   * @param tmpSize the size of each run's /tmp, e.g. "64m" as in the service
   */
  static RunningFakeApi start(String tmpSize) throws IOException {
    Path runs = Files.createDirectories(Path.of("target", "fake-api-runs").toAbsolutePath());
    return new RunningFakeApi(runs, tmpSize);
  }

  /**
   * @param runs where each program file is kept (seen at /mnt inside its run)
   * @param tmpSize the size of each run's /tmp
   */
  private RunningFakeApi(Path runs, String tmpSize) throws IOException {
    this.runs = runs;
    this.tmpSize = tmpSize;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/run", this::handle);
    server.setExecutor(Executors.newFixedThreadPool(2));
    server.start();
    runner = runners.runner(runUri(), Duration.ofSeconds(30));
  }

  /** The real Cinch runner, sending to this API. */
  CinchApiRunner runner() {
    return runner;
  }

  URI runUri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/run");
  }

  int requests() {
    return requests.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    requests.incrementAndGet();
    try (exchange) {
      JsonNode body = JSON.readTree(exchange.getRequestBody());
      boolean python = !"javascript".equals(body.path("language").asText("python"));
      Path dir = Files.createTempDirectory(runs, "run");
      Path code =
          Files.writeString(dir.resolve(python ? "main.py" : "main.js"), body.get("code").asText());
      try {
        // The run's folder is seen at /mnt inside the run: the fresh /tmp would hide it when the
        // project itself lies under /tmp (a clean clone's usual place).
        reply(
            exchange, run(dir, List.of(python ? "python3" : "node", "/mnt/" + code.getFileName())));
      } finally {
        try (var files = Files.walk(dir)) {
          files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
      }
    } catch (RuntimeException | InterruptedException e) {
      byte[] text = e.toString().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(500, text.length);
      exchange.getResponseBody().write(text);
    }
  }

  private ObjectNode run(Path dir, List<String> command) throws IOException, InterruptedException {
    Path out = dir.resolve("stdout");
    Path err = dir.resolve("stderr");
    // sh shows the run's folder at /mnt and mounts the fresh /tmp (both only in this mount
    // namespace, whose mounts are private), then becomes the interpreter; stdin is empty, as at
    // the service.
    List<String> argv =
        new java.util.ArrayList<>(
            List.of(
                "unshare",
                "-m",
                "sh",
                "-c",
                "mount --bind \"$0\" /mnt && mount -t tmpfs -o size="
                    + tmpSize
                    + " tmpfs /tmp && cd /tmp && exec \"$@\"",
                dir.toString()));
    argv.addAll(command);
    long started = System.nanoTime();
    Process process =
        new ProcessBuilder(argv)
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    boolean timedOut = !process.waitFor(TIME_LIMIT_SECONDS, TimeUnit.SECONDS);
    if (timedOut) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor();
    }
    ObjectNode answer = JSON.createObjectNode();
    answer.put("stdout", Files.readString(out, StandardCharsets.UTF_8));
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
  public void close() {
    runner.close();
    runners.close();
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}

package dev.cinchmcp.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.cinchmcp.testkit.JarProcess;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for the Cinch API that really runs what the jar posts to {@code /run}, with the host's
 * python3 or node, each program in a private 64 MB {@code /tmp} of its own (a tmpfs in a new mount
 * namespace: root only), like the service's box. It can cut stdout at a number of characters, as a
 * service with an output limit might (the real one's is not on record). Tests only: not a sandbox.
 */
final class CodeRunningApi implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(2);
  private final Path runs;
  private final int stdoutLimit;
  private final List<String> bodies = new CopyOnWriteArrayList<>();

  /**
   * @param stdoutLimit the most characters of stdout it answers with; the rest is cut off
   */
  CodeRunningApi(int stdoutLimit) throws IOException {
    this.stdoutLimit = stdoutLimit;
    this.runs = Files.createDirectories(Path.of("target", "code-running-api").toAbsolutePath());
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/run", this::handle);
    server.setExecutor(threads);
    server.start();
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Every request body received, as sent. */
  List<String> bodies() {
    return List.copyOf(bodies);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String raw = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      bodies.add(raw);
      JsonNode body = JarProcess.JSON.readTree(raw);
      boolean python = !"javascript".equals(body.path("language").asText("python"));
      Path dir = Files.createTempDirectory(runs, "run");
      try {
        Path code =
            Files.writeString(
                dir.resolve(python ? "main.py" : "main.js"), body.path("code").asText());
        reply(exchange, run(dir, python ? "python3" : "node", code.getFileName().toString()));
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
    List<String> argv =
        new ArrayList<>(
            List.of(
                "unshare",
                "-m",
                "sh",
                "-c",
                "mount --bind \"$0\" /mnt && mount -t tmpfs -o size=64m tmpfs /tmp && cd /tmp"
                    + " && exec \"$@\"",
                dir.toString(),
                interpreter,
                "/mnt/" + file));
    long started = System.nanoTime();
    Process process =
        new ProcessBuilder(argv)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    boolean timedOut = !process.waitFor(10, TimeUnit.SECONDS);
    if (timedOut) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly().waitFor();
    }
    String stdout = Files.readString(out, StandardCharsets.UTF_8);
    ObjectNode answer = JarProcess.JSON.createObjectNode();
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
    byte[] bytes = JarProcess.JSON.writeValueAsBytes(answer);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, bytes.length);
    try (OutputStream body = exchange.getResponseBody()) {
      body.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}

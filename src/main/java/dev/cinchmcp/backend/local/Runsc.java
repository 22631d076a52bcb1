package dev.cinchmcp.backend.local;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One runsc binary and its state directory: the command lines and the housekeeping commands. */
final class Runsc {

  private static final Logger log = LoggerFactory.getLogger(Runsc.class);
  private static final long HOUSEKEEPING_TIMEOUT_SECONDS = 10;

  private final Path binary;
  private final Path root;
  private final Map<String, String> environment;

  private final ReadWriteLock starts = new ReentrantReadWriteLock();
  private volatile boolean stopped; // no start from now

  Runsc(Path binary, Path root, Map<String, String> environment) {
    this.binary = binary;
    this.root = root;
    this.environment = environment;
  }

  static Optional<Path> locate(String runsc, Map<String, String> environment) {
    if (runsc.contains("/")) {
      Path path = Path.of(runsc);
      return Files.isExecutable(path) ? Optional.of(path) : Optional.empty();
    }
    String path = environment.getOrDefault("PATH", "");
    return Arrays.stream(path.split(":"))
        .filter(dir -> !dir.isEmpty())
        .map(dir -> Path.of(dir, runsc))
        .filter(Files::isExecutable)
        .findFirst();
  }

  Path binary() {
    return binary;
  }

  Path root() {
    return root;
  }

  /**
   * {@code --rootless}: no host privilege; {@code --network=none}: loopback only; {@code
   * --ignore-cgroups}: {@link HostCgroups} holds the limits, ~2 s per run faster.
   */
  List<String> command(String... rest) {
    List<String> argv = new ArrayList<>(List.of(binary.toString(), "--rootless", "--network=none"));
    argv.addAll(List.of("--ignore-cgroups", "--root", root.toString()));
    argv.addAll(List.of(rest));
    return argv;
  }

  ProcessBuilder processBuilder(List<String> argv) {
    ProcessBuilder builder = new ProcessBuilder(argv);
    builder.environment().clear();
    builder.environment().putAll(environment);
    return builder;
  }

  List<String> list() {
    return housekeeping("list", "-quiet")
        .map(out -> out.lines().filter(l -> !l.isBlank()).toList())
        .orElse(List.of());
  }

  void deleteForce(String id) {
    housekeeping("delete", "-force", id);
  }

  /** By {@code delete -force}, or for one {@code killed} by deleting its files (0.9 s faster). */
  void removeState(String id, boolean killed) {
    try (var entries = Files.list(root)) {
      List<Path> state =
          entries.filter(path -> path.getFileName().toString().startsWith(id + "_")).toList();
      if (killed) {
        state.forEach(StateDirectory::deleteTree);
      } else if (!state.isEmpty()) {
        deleteForce(id);
      }
    } catch (IOException e) {
      log.debug("Could not list runsc's state: {}", e.toString());
      if (!killed) {
        deleteForce(id);
      }
    }
  }

  private Optional<String> housekeeping(String... rest) {
    ProcessBuilder builder = processBuilder(command(rest)).redirectErrorStream(true);
    try {
      Process process = start(builder.redirectInput(new File("/dev/null")));
      String text;
      try (InputStream in = process.getInputStream()) {
        text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      }
      if (!process.waitFor(HOUSEKEEPING_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        log.warn("runsc {} did not finish in {} s", rest[0], HOUSEKEEPING_TIMEOUT_SECONDS);
        return Optional.empty();
      }
      if (process.exitValue() != 0) {
        log.debug(
            "runsc {} exited {}: {}", String.join(" ", rest), process.exitValue(), text.strip());
        return Optional.empty();
      }
      return Optional.of(text);
    } catch (IOException e) {
      if (!stopped) { // stopping: the next start cleans up
        log.warn("runsc {} failed: {}", rest[0], e.toString());
      }
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  /** Under the read lock, so that a stop can wait for one under way (it would outlive the JVM). */
  Process start(ProcessBuilder builder) throws IOException {
    starts.readLock().lock();
    try {
      if (stopped) {
        throw new IOException("the server is stopping");
      }
      return builder.start();
    } finally {
      starts.readLock().unlock();
    }
  }

  /** A stop has begun: the next server's {@link StateDirectory#removeLeftovers} cleans up. */
  void refuseStarts() {
    stopped = true;
  }

  boolean refusesStarts() {
    return stopped;
  }

  void awaitStarts(long millis) {
    try {
      if (starts.writeLock().tryLock(millis, TimeUnit.MILLISECONDS)) {
        starts.writeLock().unlock();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

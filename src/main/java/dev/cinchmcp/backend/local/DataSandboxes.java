package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.DaemonThreads;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.PythonImports;
import dev.cinchmcp.backend.WarmPool;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sandboxes started ahead, each used once: {@code size} plain ones per language, and Python
 * ones that imported a data program's heavy modules (numpy, pandas...: seconds at half a CPU, most
 * of a data call's time). A program gets a data one only when it imports every module that one
 * imported (so its memory limit holds as if it had). None until a data call shows the demand; then
 * {@code size} for each of the {@value #KINDS} latest sets of modules (a table and a chart in turn
 * keep one of each); none after the idle limit.
 */
final class DataSandboxes implements AutoCloseable {

  @FunctionalInterface
  interface Starter {
    Sandbox start(Language language, List<String> modules) throws IOException;
  }

  private static final Logger log = LoggerFactory.getLogger(DataSandboxes.class);

  private static final Map<String, List<String>> IMPORTS_TOO =
      Map.of(
          "pandas", List.of("numpy"),
          "matplotlib", List.of("numpy"),
          "scipy", List.of("numpy"),
          "sklearn", List.of("numpy", "scipy"),
          "seaborn", List.of("numpy", "pandas", "matplotlib"),
          "statsmodels", List.of("numpy", "scipy", "pandas"));

  private final int size;
  private final long idleLimitNanos;
  private final List<String> pythonDirs;
  private final Starter starter;
  private final LongSupplier clock;
  private final ExecutorService closer;
  private final WarmPool<Sandbox> plain;

  static final int KINDS = 2;

  // Guarded by this. The pools by their modules, the one of the latest data call last.
  private final LinkedHashMap<List<String>, WarmPool<Sandbox>> pools =
      new LinkedHashMap<>(4, 0.75f, true);
  private long lastDataCall;
  private int callsRunning;
  private boolean closed;

  /** {@code pythonDirs}: where the sandbox's Python finds packages; empty: no data sandboxes. */
  DataSandboxes(
      int size,
      Duration idleLimit,
      Set<Language> languages,
      List<String> pythonDirs,
      Starter starter,
      LongSupplier clock) {
    Map<Language, Integer> sizes = new EnumMap<>(Language.class);
    languages.forEach(language -> sizes.put(language, size));
    this.plain =
        new WarmPool<>(
            sizes,
            idleLimit,
            language -> starter.start(language, List.of()),
            "cinchmcp-sandbox-pool");
    this.size = size;
    this.idleLimitNanos = idleLimit.toNanos();
    this.pythonDirs = List.copyOf(pythonDirs);
    this.starter = starter;
    this.clock = clock;
    this.closer = Executors.newCachedThreadPool(DaemonThreads.named("cinchmcp-data-pool-close"));
  }

  /** The installed heavy modules {@code program} imports, with parents and what they import. */
  List<String> modulesOf(Program program) {
    if (program.language() != Language.PYTHON || pythonDirs.isEmpty()) {
      return List.of();
    }
    List<String> installed = new ArrayList<>();
    for (String module : PythonImports.withParents(PythonImports.heavy(program.source()))) {
      if (installed(module)) {
        installed.add(module); // only then: a failed import brings nothing
        installed.addAll(
            IMPORTS_TOO.getOrDefault(module, List.of()).stream().filter(this::installed).toList());
      }
    }
    // Sorted: the same imports in another order are the same demand.
    return installed.stream().distinct().sorted().toList();
  }

  private boolean installed(String module) {
    String relative = module.replace('.', '/');
    String leaf = relative.substring(relative.lastIndexOf('/') + 1);
    for (String dir : pythonDirs) {
      Path path = Path.of(dir, relative);
      if (Files.isDirectory(path) || Files.isRegularFile(Path.of(dir, relative + ".py"))) {
        return true;
      }
      Path parent = path.getParent();
      if (Files.isDirectory(parent)) {
        try (DirectoryStream<Path> native_ = Files.newDirectoryStream(parent, leaf + ".*.so")) {
          if (native_.iterator().hasNext()) {
            return true;
          }
        } catch (IOException e) {
          // unreadable: not found here
        }
      }
    }
    return false;
  }

  /** No start competes with a call; a data call records the demand. */
  synchronized void callStarted(List<String> modules) {
    long now = clock.getAsLong();
    if (!pools.isEmpty() && now - lastDataCall > idleLimitNanos) { // until the demand shows again
      new ArrayList<>(pools.keySet()).forEach(this::retire);
    }
    if (!modules.isEmpty() && !closed && size > 0) {
      lastDataCall = now;
      if (pools.get(modules) == null) {
        WarmPool<Sandbox> pool =
            new WarmPool<>(
                Map.of(Language.PYTHON, size),
                Duration.ofNanos(idleLimitNanos),
                language -> starter.start(Language.PYTHON, modules),
                "cinchmcp-data-pool");
        for (int i = 0; i < callsRunning; i++) {
          pool.callStarted(); // the calls already running hold its refill too
        }
        pools.put(modules, pool);
        if (pools.size() > KINDS) {
          retire(pools.keySet().iterator().next()); // the one used longest ago
        }
      }
    }
    callsRunning++;
    plain.callStarted();
    for (WarmPool<Sandbox> pool : pools.values()) {
      pool.callStarted();
    }
  }

  synchronized void callEnded() {
    callsRunning--;
    plain.callEnded();
    for (WarmPool<Sandbox> pool : pools.values()) {
      pool.callEnded();
    }
  }

  void fill() {
    if (size > 0) {
      plain.fill();
    }
  }

  /**
   * Of the sandboxes that imported only modules among {@code modules}, one that imported most; else
   * a plain one.
   */
  Optional<Sandbox> take(Language language, List<String> modules) {
    List<WarmPool<Sandbox>> fitting;
    synchronized (this) { // no pool is kept for no modules
      fitting =
          pools.entrySet().stream()
              .filter(kind -> modules.containsAll(kind.getKey()))
              .sorted((a, b) -> b.getKey().size() - a.getKey().size())
              .map(Map.Entry::getValue)
              .toList();
    }
    return fitting.stream()
        .flatMap(pool -> pool.take(Language.PYTHON).stream())
        .findFirst()
        .or(() -> plain.take(language));
  }

  synchronized List<List<String>> demand() {
    return List.copyOf(pools.keySet());
  }

  synchronized int dataWaiting() {
    return pools.values().stream().mapToInt(pool -> pool.waiting(Language.PYTHON)).sum();
  }

  int waiting(Language language) {
    return plain.waiting(language);
  }

  boolean full() {
    return size > 0 && plain.full();
  }

  private void retire(List<String> modules) {
    WarmPool<Sandbox> old = pools.remove(modules);
    if (old != null) {
      log.debug("Data sandboxes for {} no longer kept", modules);
      old.stopNow();
      closer.execute(old::close);
    }
  }

  private synchronized List<WarmPool<Sandbox>> closing(boolean forget) {
    closed = true;
    List<WarmPool<Sandbox>> all = new ArrayList<>(pools.values());
    if (forget) {
      pools.clear();
    }
    return all;
  }

  boolean stopNow() {
    boolean killed = plain.stopNow();
    for (WarmPool<Sandbox> pool : closing(false)) { // a loop, not a lambda: a stop runs this cold
      killed |= pool.stopNow();
    }
    return killed;
  }

  @Override
  public void close() {
    plain.close();
    closing(true).forEach(WarmPool::close);
    closer.shutdown();
    try {
      closer.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.Program;
import dev.cinchmcp.backend.WarmPool;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sandboxes started ahead of time: {@link LocalSandboxSettings#poolSize()} plain ones per
 * language in a {@link WarmPool}, and Python ones that imported a data program's modules ({@link
 * DataSandboxes}). Each is used once; none found means a cold start.
 */
final class SandboxesAhead implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SandboxesAhead.class);

  private final WarmPool<Sandbox> pool;

  // null without a Python
  private final DataSandboxes data;

  /**
   * @param host as the self-test left it (asked at each start, which comes only after it passed)
   */
  SandboxesAhead(
      LocalSandboxSettings settings,
      GvisorProbe.Prepared prepared,
      Supplier<SandboxHost> host,
      ExecutorService streamThreads) {
    Map<Language, Integer> sizes = new EnumMap<>(Language.class);
    for (Language language : Language.values()) {
      if (prepared.host().runtimes().interpreter(language).isPresent()) {
        sizes.put(language, settings.poolSize());
      }
    }
    this.pool =
        new WarmPool<>(
            sizes,
            settings.poolIdleLimit(),
            language ->
                Sandbox.startAhead(language, List.of(), settings, host.get(), streamThreads),
            "cinchmcp-sandbox-pool");
    this.data = dataSandboxes(settings, prepared, host, streamThreads);
  }

  private static DataSandboxes dataSandboxes(
      LocalSandboxSettings settings,
      GvisorProbe.Prepared prepared,
      Supplier<SandboxHost> host,
      ExecutorService streamThreads) {
    if (prepared.python().isEmpty()) {
      return null;
    }
    return new DataSandboxes(
        settings.poolSize(),
        settings.poolIdleLimit(),
        prepared.pythonDirs(),
        modules ->
            Sandbox.startAhead(Language.PYTHON, modules, settings, host.get(), streamThreads),
        System::nanoTime);
  }

  void fill() {
    pool.fill();
  }

  /**
   * A call arrived: until its answer no start competes with it; returns the heavy modules it
   * imports.
   */
  List<String> callStarted(Program program) {
    List<String> modules = data == null ? List.of() : data.modulesOf(program);
    pool.callStarted();
    if (data != null) {
      data.callStarted(modules);
    }
    return modules;
  }

  void callEnded() {
    pool.callEnded();
    if (data != null) {
      data.callEnded();
    }
  }

  /** A data sandbox when one imported only modules the program imports; else a plain one. */
  Optional<Sandbox> take(Language language, List<String> modules) {
    return (data == null ? Optional.<Sandbox>empty() : data.take(modules))
        .or(() -> pool.take(language));
  }

  int waiting(Language language) {
    return pool.waiting(language);
  }

  boolean full() {
    return pool.full();
  }

  int dataWaiting() {
    return data == null ? 0 : data.waiting();
  }

  /** Kills every waiting sandbox at once; says whether it killed any. */
  boolean stopNow() {
    boolean killed = pool.stopNow();
    if (data != null && data.stopNow()) {
      killed = true;
    }
    return killed;
  }

  @Override
  public void close() {
    long started = System.nanoTime();
    pool.close();
    if (data != null) {
      data.close();
    }
    log.debug(
        "Waiting sandboxes killed and removed in {} ms", (System.nanoTime() - started) / 1_000_000);
  }
}

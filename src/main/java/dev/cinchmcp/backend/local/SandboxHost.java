package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * What this machine gives every run, found once at start, with the settings and the threads that
 * read the sandboxes' output.
 *
 * @param timeout coreutils' {@code timeout}: the backstop that outlives the server
 * @param cgroupOverheadBytes what gVisor and the interpreter use before the program's first line
 *     (the self-test measures it), allowed on top of the program's memory
 */
record SandboxHost(
    LocalSandboxSettings settings,
    Runsc runsc,
    StateDirectory.Prepared state,
    Optional<HostCgroups> cgroups,
    SandboxRuntimes runtimes,
    Path timeout,
    Map<Language, Long> cgroupOverheadBytes,
    MatplotlibFontCache fontCache,
    ExecutorService streamThreads) {

  /** Before the self-test measured it: ample (~25 MB measured here for both languages). */
  static final long DEFAULT_OVERHEAD_BYTES = 128L << 20;

  long overhead(Language language) {
    return cgroupOverheadBytes.getOrDefault(language, DEFAULT_OVERHEAD_BYTES);
  }

  SandboxHost with(LocalSandboxSettings other, Map<Language, Long> overheads) {
    return new SandboxHost(
        other,
        runsc,
        state,
        cgroups,
        runtimes,
        timeout,
        Map.copyOf(overheads),
        fontCache,
        streamThreads);
  }
}

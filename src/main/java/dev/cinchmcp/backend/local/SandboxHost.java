package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What this machine gives every run, found once at start.
 *
 * @param timeout coreutils' {@code timeout}: the backstop that outlives the server
 * @param cgroupOverheadBytes what gVisor and the interpreter use before the program's first line
 *     (the self-test measures it), allowed on top of the program's memory
 */
record SandboxHost(
    Runsc runsc,
    StateDirectory.Prepared state,
    Optional<HostCgroups> cgroups,
    SandboxRuntimes runtimes,
    Path timeout,
    Map<Language, Long> cgroupOverheadBytes,
    MatplotlibFontCache fontCache) {

  /** Before the self-test measured it: ample (~25 MB measured here for both languages). */
  static final long DEFAULT_OVERHEAD_BYTES = 128L << 20;

  long overhead(Language language) {
    return cgroupOverheadBytes.getOrDefault(language, DEFAULT_OVERHEAD_BYTES);
  }

  /** Empty without host cgroups. */
  Optional<RunCgroup> runCgroup(String id, Language language, LocalSandboxSettings settings)
      throws IOException {
    if (cgroups.isEmpty()) {
      return Optional.empty();
    }
    long memory = settings.memoryBytes() + overhead(language);
    return Optional.of(
        cgroups.get().create(id, memory, settings.hostTaskLimit(), settings.cpuShare()));
  }

  SandboxHost withOverheads(Map<Language, Long> measured) {
    return new SandboxHost(
        runsc, state, cgroups, runtimes, timeout, Map.copyOf(measured), fontCache);
  }
}

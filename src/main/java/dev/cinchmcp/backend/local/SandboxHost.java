package dev.cinchmcp.backend.local;

import dev.cinchmcp.backend.Language;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * What this machine gives every run, found once at start: runsc, the private state directory, the
 * host cgroups (when this user may make them), the interpreters, and {@code timeout}, which stops a
 * sandbox at its wall clock even when the server itself is gone.
 *
 * @param cgroupOverheadBytes what gVisor and the interpreter use before the program's first line,
 *     per language, measured by the self-test; a run's cgroup allows this on top of the program's
 *     own memory, so the program gets its full allowance and no more
 */
record SandboxHost(
    Runsc runsc,
    StateDirectory.Prepared state,
    Optional<HostCgroups> cgroups,
    SandboxRuntimes runtimes,
    Path timeout,
    Map<Language, Long> cgroupOverheadBytes,
    MatplotlibFontCache fontCache) {

  /**
   * Before the self-test has measured it (the self-test itself runs with this): ample for gVisor
   * and either interpreter, measured at ~25 MB here for both.
   */
  static final long DEFAULT_OVERHEAD_BYTES = 128L << 20;

  long overhead(Language language) {
    return cgroupOverheadBytes.getOrDefault(language, DEFAULT_OVERHEAD_BYTES);
  }

  /**
   * Makes the cgroup of run {@code id} with its limits: the program's memory, and on top what
   * gVisor and the interpreter use before its first line. Empty without host cgroups.
   */
  Optional<RunCgroup> runCgroup(String id, Language language, LocalSandboxSettings settings)
      throws IOException {
    if (cgroups.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        cgroups
            .get()
            .create(
                id,
                settings.memoryBytes() + overhead(language),
                settings.hostTaskLimit(),
                settings.cpuShare()));
  }

  SandboxHost withOverheads(Map<Language, Long> measured) {
    return new SandboxHost(
        runsc, state, cgroups, runtimes, timeout, Map.copyOf(measured), fontCache);
  }
}

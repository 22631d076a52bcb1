package dev.cinchmcp.backend;

import dev.cinchmcp.config.SandboxLimits;
import dev.cinchmcp.text.CappedText;

/**
 * What a program can count on in the sandbox, worded once for the tool's description, the schema,
 * result notes, {@code --help} and the README (a test holds the README to it).
 *
 * @param limits e.g. "10 seconds, 256 MB of memory, half a CPU"
 * @param packages what a program can import, a phrase that follows the runtimes
 */
public record SandboxFacts(
    String runtimes, String limits, String isolation, String packages, long timeLimitSeconds) {

  public static final String STANDARD_LIBRARY_ONLY =
      "standard library only: no third-party packages (no numpy, pandas, requests, lodash) and no"
          + " way to install any";

  public static final String GVISOR = "gVisor";
  public static final String SERVICE_RUNTIMES = "Python 3.12 and Node 20";
  public static final int TIME_LIMIT_SECONDS = SandboxLimits.SERVICE.timeLimitSeconds();
  public static final int MEMORY_MEGABYTES = SandboxLimits.SERVICE.memoryMegabytes();
  public static final int MAX_PROCESSES = 64;

  /** Sandboxes a machine-local backend runs at once (4 at half a CPU fill 2 cores). */
  public static final int MAX_CONCURRENT = 4;

  public static final int TMP_MEGABYTES = 64;

  public static final String SERVICE_LIMITS = limits(SandboxLimits.SERVICE);

  public static final SandboxFacts SERVICE =
      new SandboxFacts(
          SERVICE_RUNTIMES, SERVICE_LIMITS, GVISOR, STANDARD_LIBRARY_ONLY, TIME_LIMIT_SECONDS);

  public static String limits(SandboxLimits limits) {
    return "%d seconds, %d MB of memory, %s"
        .formatted(limits.timeLimitSeconds(), limits.memoryMegabytes(), cpuShare(limits.cpus()));
  }

  /** {@code found}: e.g. "Python: numpy 1.24, matplotlib 3.6"; empty when none was found. */
  public static String installedPackages(String found) {
    return "standard library, plus what this machine has installed under /usr ("
        + (found.isEmpty() ? "none of the well-known packages was found" : found)
        + "); no way to install more";
  }

  public static String imagePackages(String images) {
    return "standard library, plus whatever the images " + images + " hold; no way to install more";
  }

  /** A CPU share as a phrase: "half a CPU", "1 CPU", "1.5 CPUs", "0.25 CPUs". */
  public static String cpuShare(double share) {
    return share == 0.5
        ? "half a CPU"
        : SandboxLimits.number(share) + (share == 1 ? " CPU" : " CPUs");
  }

  public String timeLimit() {
    return timeLimitSeconds + " s";
  }

  public static String fileSystem() {
    return "a read-only file system except a small /tmp (%d MB) that is wiped after the run"
        .formatted(TMP_MEGABYTES);
  }

  public static String outputCut() {
    return ("Each output stream is shown up to %s characters; a longer one shows its first %s and"
            + " last %s, with a marker that counts what was left out between them (fewer when the"
            + " text is costly to send, e.g. non-Latin scripts or emoji).")
        .formatted(
            CappedText.count(CappedText.LIMIT),
            CappedText.count(CappedText.HEAD),
            CappedText.count(CappedText.TAIL));
  }

  public static String controlCharacters() {
    return "Terminal colour and cursor codes are removed, other control characters are shown as"
        + " symbols (e.g. \u2401 for U+0001, runs as [\u2401 \u00D7500]) and invalid text as \uFFFD.";
  }
}

package dev.cinchmcp.backend;

import dev.cinchmcp.config.SandboxLimits;
import dev.cinchmcp.text.CappedText;
import java.util.Objects;

/**
 * What a program can count on in the sandbox, written once: the tool's description, the input
 * schema's texts, the notes in a result, {@code --help} and the README all take their wording from
 * here (a test holds the README to it). The limits are the Cinch service's ({@link
 * SandboxLimits#SERVICE}); the local and docker backends hold the same unless the user set others
 * ({@code CINCH_SANDBOX_*}), and then state those. The language versions are the service's unless
 * the backend that serves knows its own (the local sandbox reports the interpreters it really
 * runs).
 *
 * @param runtimes the languages and versions, e.g. "Python 3.12 and Node 20"
 * @param limits the limits that hold, as a phrase, e.g. "10 seconds, 256 MB of memory, half a CPU"
 * @param isolation what keeps a program in, as a short phrase, e.g. "gVisor"
 * @param packages what a program can import besides the standard library, as a phrase that follows
 *     the runtimes ({@link #STANDARD_LIBRARY_ONLY}, {@link #installedPackages})
 * @param timeLimitSeconds the wall clock a run is stopped at, for the notes of a run that timed out
 */
public record SandboxFacts(
    String runtimes, String limits, String isolation, String packages, long timeLimitSeconds) {

  /**
   * The hosted API's sandboxes, and the official images of the docker backend: nothing but the
   * standard library, and no network to install more.
   */
  public static final String STANDARD_LIBRARY_ONLY =
      "standard library only: no third-party packages (no numpy, pandas, requests, lodash) and no"
          + " way to install any";

  /** The boundary of the Cinch service and of the local backend. */
  public static final String GVISOR = "gVisor";

  /** The Cinch service's interpreters. */
  public static final String SERVICE_RUNTIMES = "Python 3.12 and Node 20";

  /** Wall-clock time a run may take before the service's sandbox stops it. */
  public static final int TIME_LIMIT_SECONDS = SandboxLimits.SERVICE.timeLimitSeconds();

  public static final int MEMORY_MEGABYTES = SandboxLimits.SERVICE.memoryMegabytes();

  /** The most processes (and threads) a program may have at once. */
  public static final int MAX_PROCESSES = 64;

  /**
   * How many sandboxes a machine-local backend runs at once; further runs queue (2 cores: each
   * sandbox is held to half a CPU by default, so 4 fill them; with a larger share, {@code
   * CpuReserve} still keeps all of them together off a reserve of the CPU).
   */
  public static final int MAX_CONCURRENT = 4;

  /** The size of the writable /tmp, the only writable place. */
  public static final int TMP_MEGABYTES = 64;

  public static final String SERVICE_LIMITS = limits(SandboxLimits.SERVICE);

  /** The service as it is documented; what the cinch backend serves. */
  public static final SandboxFacts SERVICE =
      new SandboxFacts(
          SERVICE_RUNTIMES, SERVICE_LIMITS, GVISOR, STANDARD_LIBRARY_ONLY, TIME_LIMIT_SECONDS);

  public SandboxFacts {
    Objects.requireNonNull(runtimes, "runtimes");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(isolation, "isolation");
    Objects.requireNonNull(packages, "packages");
  }

  /** Limits as a phrase: "10 seconds, 256 MB of memory, half a CPU". */
  public static String limits(SandboxLimits limits) {
    return limits.timeLimitSeconds()
        + " seconds, "
        + limits.memoryMegabytes()
        + " MB of memory, "
        + cpuShare(limits.cpus());
  }

  /**
   * What the local backend offers: the standard library and what the machine has installed under
   * /usr, naming the well-known packages found at start.
   *
   * @param found e.g. "Python: numpy 1.24, matplotlib 3.6"; empty when none was found
   */
  public static String installedPackages(String found) {
    return "standard library, plus what this machine has installed under /usr ("
        + (found.isEmpty() ? "none of the well-known packages was found" : found)
        + "); no way to install more";
  }

  /** What a container image offers that is not an official one: only its maker knows. */
  public static String imagePackages(String images) {
    return "standard library, plus whatever the images " + images + " hold; no way to install more";
  }

  /** A CPU share as a phrase: "half a CPU", "1 CPU", "1.5 CPUs", "0.25 CPUs". */
  public static String cpuShare(double share) {
    if (share == 0.5) {
      return "half a CPU";
    }
    return SandboxLimits.number(share) + (share == 1 ? " CPU" : " CPUs");
  }

  /** "10 s", for the notes about a run that timed out. */
  public String timeLimit() {
    return timeLimitSeconds + " s";
  }

  /** The file system, as a phrase. */
  public static String fileSystem() {
    return "a read-only file system except a small /tmp ("
        + TMP_MEGABYTES
        + " MB) that is wiped after the run";
  }

  /** How output is cut, as a sentence. */
  public static String outputCut() {
    return "Each output stream is shown up to "
        + CappedText.count(CappedText.LIMIT)
        + " characters; a longer one shows its first "
        + CappedText.count(CappedText.HEAD)
        + " and last "
        + CappedText.count(CappedText.TAIL)
        + ", with a marker that counts what was left out between them (fewer when the text is"
        + " costly to send, e.g. non-Latin scripts or emoji).";
  }

  /** How control characters are shown, as a sentence. */
  public static String controlCharacters() {
    return "Terminal colour and cursor codes are removed, other control characters are shown as"
        + " symbols (e.g. \u2401 for U+0001, runs as [\u2401 \u00D7500]) and invalid text as \uFFFD.";
  }
}

package dev.cinchmcp.backend.docker;

import dev.cinchmcp.backend.CpuReserve;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.config.DockerOptions;
import dev.cinchmcp.config.SandboxLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Everything the docker backend can be told.
 *
 * @param runtime the engine runtime asked for by name ("runsc", "runc"), or null
 * @param environment what engine discovery reads (DOCKER_HOST, HOME, ...); never reaches a program
 * @param osName the host's {@code os.name}: where to look, and whether containers share its kernel
 */
public record DockerSettings(
    String pythonImage,
    String nodeImage,
    String runtime,
    Map<String, String> environment,
    String osName,
    Duration wallClock,
    long memoryBytes,
    double cpuShare) {

  public DockerSettings {
    environment = Map.copyOf(environment);
  }

  /** The limits the user set ({@code CINCH_SANDBOX_*}), with these images and this engine. */
  public static DockerSettings of(
      String pythonImage,
      String nodeImage,
      String runtime,
      Map<String, String> environment,
      SandboxLimits limits) {
    return new DockerSettings(
        pythonImage,
        nodeImage,
        runtime,
        environment,
        System.getProperty("os.name", ""),
        limits.timeLimit(),
        limits.memoryBytes(),
        limits.cpus());
  }

  /** What a program can import besides the standard library (in custom images, who knows). */
  String packages() {
    List<String> custom = new ArrayList<>();
    if (!pythonImage.equals(DockerOptions.DEFAULT_PYTHON_IMAGE)) {
      custom.add(pythonImage);
    }
    if (!nodeImage.equals(DockerOptions.DEFAULT_NODE_IMAGE)) {
      custom.add(nodeImage);
    }
    return custom.isEmpty()
        ? SandboxFacts.STANDARD_LIBRARY_ONLY
        : SandboxFacts.imagePackages(String.join(" and ", custom));
  }

  /** The limits that hold, for the tool's description and the ready line. */
  String limits(boolean gvisor) {
    return wallClock.toSeconds()
        + " seconds, "
        + memoryMebibytes()
        + " MB of memory"
        + (gvisor ? " (gVisor's own share included)" : "")
        + ", "
        + SandboxFacts.MAX_PROCESSES
        + " processes, "
        + SandboxFacts.cpuShare(cpuShare);
  }

  String image(Language language) {
    return language == Language.PYTHON ? pythonImage : nodeImage;
  }

  static String imageSetting(Language language) {
    return language == Language.PYTHON ? DockerOptions.PYTHON_IMAGE : DockerOptions.NODE_IMAGE;
  }

  long memoryMebibytes() {
    return memoryBytes >> 20;
  }

  /** Whether this machine is Linux, where a plain container shares the host's kernel. */
  boolean linuxHost() {
    return osName.toLowerCase(Locale.ROOT).startsWith("linux");
  }

  /**
   * How many containers run at once. Where they share this machine's kernel, together they leave
   * the CPU reserve of {@link CpuReserve} free (an engine's containers have no parent cgroup a
   * server without root could cap): 3 on 2 cores, 1 on 1, each with its whole share. An engine in a
   * VM of its own has CPUs of its own, and runs them all.
   */
  record ContainersAtOnce(int count, int cores, int most) {
    /** For {@code most} containers of {@code share} each. */
    static ContainersAtOnce of(int most, double share, int cores, boolean sharesKernel) {
      OptionalDouble cap =
          sharesKernel ? CpuReserve.cap(cores, most, share) : OptionalDouble.empty();
      int count =
          cap.isPresent() ? Math.max(1, (int) Math.floor(cap.getAsDouble() / share + 1e-9)) : most;
      return new ContainersAtOnce(count, cores, most);
    }

    /** "3 containers at once (not 4), to leave part of 2 cores free", or empty. */
    String describe() {
      if (count == most) {
        return "";
      }
      return count
          + (count == 1 ? " container" : " containers")
          + " at once (not "
          + most
          + "), to leave part of "
          + cores
          + (cores == 1 ? " core" : " cores")
          + " free";
    }
  }
}

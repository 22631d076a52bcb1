package dev.cinchmcp.backend.docker;

import dev.cinchmcp.backend.Language;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.config.DockerOptions;
import dev.cinchmcp.config.SandboxLimits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
}

package dev.cinchmcp.backend.docker;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Set;
import java.util.TreeSet;

/** What the engine told about itself, once, at start. */
record EngineFacts(
    String product,
    String serverVersion,
    ApiVersion api,
    EngineAddress address,
    String operatingSystem,
    Set<String> runtimes,
    String defaultRuntime,
    String pythonVersion,
    String nodeVersion) {

  static EngineFacts of(Engine engine, DockerSettings settings) throws IOException {
    JsonNode info = engine.info();
    JsonNode version = engine.versionInfo();
    Set<String> runtimes = new TreeSet<>();
    info.path("Runtimes").fieldNames().forEachRemaining(runtimes::add);
    String product = version.path("Platform").path("Name").asText("");
    if (product.isBlank()) {
      product = "Docker Engine"; // Debian's dockerd names no platform
    }
    Images images = new Images(engine, null);
    return new EngineFacts(
        product,
        version.path("Version").asText(info.path("ServerVersion").asText("?")),
        engine.version(),
        engine.address(),
        info.path("OperatingSystem").asText(""),
        runtimes,
        info.path("DefaultRuntime").asText(""),
        images
            .versionIfPresent(settings.pythonImage(), "PYTHON_VERSION")
            .orElse("(" + settings.pythonImage() + ")"),
        images
            .versionIfPresent(settings.nodeImage(), "NODE_VERSION")
            .orElse("(" + settings.nodeImage() + ")"));
  }

  /** Whether the engine runs its containers in a VM of its own, not on this machine's kernel. */
  boolean ownVm(DockerSettings settings) {
    return RuntimeChoice.ownVm(settings.linuxHost(), operatingSystem);
  }

  RuntimeChoice runtime(DockerSettings settings) {
    return RuntimeChoice.of(settings.runtime(), runtimes, defaultRuntime, ownVm(settings));
  }

  String describe() {
    return product
        + " "
        + serverVersion
        + " (API "
        + api
        + (operatingSystem.isBlank() ? "" : ", " + operatingSystem)
        + ") at "
        + address;
  }
}

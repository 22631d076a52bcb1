package dev.cinchmcp.backend.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.config.DockerOptions;
import dev.cinchmcp.config.SandboxLimits;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the tool description says a program can import, by the images configured. */
class DockerPackagesTest {

  @Test
  void theOfficialImagesHoldTheStandardLibraryOnly() {
    DockerSettings settings =
        DockerSettings.of(
            DockerOptions.DEFAULT_PYTHON_IMAGE,
            DockerOptions.DEFAULT_NODE_IMAGE,
            null,
            Map.of(),
            SandboxLimits.SERVICE);

    assertEquals(SandboxFacts.STANDARD_LIBRARY_ONLY, settings.packages());
  }

  @Test
  void anImageOfTheUsersOwnIsNamed() {
    DockerSettings settings =
        DockerSettings.of(
            "registry.example/team/py-science:3",
            DockerOptions.DEFAULT_NODE_IMAGE,
            null,
            Map.of(),
            SandboxLimits.SERVICE);

    assertEquals(
        "standard library, plus whatever the images registry.example/team/py-science:3 hold;"
            + " no way to install more",
        settings.packages());
  }
}

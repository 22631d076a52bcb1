package dev.cinchmcp.backend.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cinchmcp.backend.SandboxFacts;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the tool description says a program can import, by the images configured. */
class DockerPackagesTest {

  @Test
  void theOfficialImagesHoldTheStandardLibraryOnly() {
    DockerSettings settings =
        DockerSettings.of(
            DockerSettings.DEFAULT_PYTHON_IMAGE, DockerSettings.DEFAULT_NODE_IMAGE, null, Map.of());

    assertEquals(SandboxFacts.STANDARD_LIBRARY_ONLY, settings.packages());
  }

  @Test
  void anImageOfTheUsersOwnIsNamed() {
    DockerSettings settings =
        DockerSettings.of(
            "registry.example/team/py-science:3",
            DockerSettings.DEFAULT_NODE_IMAGE,
            null,
            Map.of());

    assertEquals(
        "standard library, plus whatever the images registry.example/team/py-science:3 hold;"
            + " no way to install more",
        settings.packages());
  }
}

package dev.cinchmcp.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.config.Settings;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The sandbox's facts are written once, in {@link SandboxFacts} (and the API's address in {@link
 * Settings#DEFAULT_BASE_URL}); Java code takes them from there. What cannot read a Java constant
 * states them again: the mcpb manifest, whose texts the client shows before the server runs (the
 * docs/tool.md has ToolPageFactsTest). If one side changes, this fails until the other does.
 */
class SandboxFactsAgreementTest {

  private static JsonNode manifest() throws IOException {
    return new ObjectMapper().readTree(Path.of("src/main/mcpb/manifest.json").toFile());
  }

  @Test
  void theManifestStatesTheTimeAndMemoryLimits() throws IOException {
    JsonNode manifest = manifest();
    String limits =
        SandboxFacts.TIME_LIMIT_SECONDS + " s, " + SandboxFacts.MEMORY_MEGABYTES + " MB";
    assertTrue(manifest.get("long_description").asText().contains(limits), limits);
    String stop = "stops programs after " + SandboxFacts.TIME_LIMIT_SECONDS + " seconds";
    assertTrue(
        manifest.at("/user_config/timeout_ms/description").asText().contains(stop),
        manifest.at("/user_config").toString());
  }

  @Test
  void theManifestStatesTheDefaultAddress() throws IOException {
    assertEquals(
        Settings.DEFAULT_BASE_URL, manifest().at("/user_config/base_url/default").asText());
  }

  @Test
  void theManifestStatesTheDefaultTimeout() throws IOException {
    assertEquals(
        Settings.DEFAULT_TIMEOUT.toMillis(),
        manifest().at("/user_config/timeout_ms/default").asLong());
  }

  @Test
  void theManifestStatesTheRuntimes() throws IOException {
    assertTrue(
        manifest()
            .get("long_description")
            .asText()
            .contains(SandboxFacts.SERVICE_RUNTIMES.replace(" and ", " or ")));
  }
}

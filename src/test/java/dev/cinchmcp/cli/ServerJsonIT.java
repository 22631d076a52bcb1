package dev.cinchmcp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.config.Version;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code target/server.json}, the bundle's entry for the official MCP Registry, against the
 * registry's documented rules (docs/reference/server-json in modelcontextprotocol/registry:
 * server.schema.json 2025-12-11, official-registry-requirements.md, package-types): the name's
 * reverse-DNS form, a description of at most 100 characters, an exact version, and an {@code mcpb}
 * package that is a GitHub release download whose URL contains "mcp", with the SHA-256 of the very
 * file the build made.
 */
class ServerJsonIT {

  /** The properties the schema allows in a package ("additionalProperties": false). */
  private static final Set<String> PACKAGE_FIELDS =
      Set.of(
          "registryType",
          "registryBaseUrl",
          "identifier",
          "version",
          "fileSha256",
          "runtimeHint",
          "transport",
          "runtimeArguments",
          "packageArguments",
          "environmentVariables");

  private final ObjectMapper json = new ObjectMapper();

  @Test
  void followsTheRegistrysRules() throws Exception {
    Path bundle = McpbBundleIT.bundle();
    JsonNode server = json.readTree(bundle.resolveSibling("server.json").toFile());

    assertEquals(
        "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
        server.path("$schema").asText());
    String name = server.path("name").asText();
    assertTrue(name.matches("^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$"), name);
    assertTrue(name.length() >= 3 && name.length() <= 200, name);
    assertTrue(name.startsWith("io.github."), "a GitHub namespace: " + name);
    String description = server.path("description").asText();
    assertTrue(!description.isEmpty() && description.length() <= 100, description);
    String version = server.path("version").asText();
    assertEquals(Version.get(), version);
    assertFalse(version.matches(".*[\\^~<>=*x].*") || version.equals("latest"), version);
    assertEquals("github", server.at("/repository/source").asText());
    String repository = server.at("/repository/url").asText();
    assertEquals("https://github.com/" + name.substring("io.github.".length()), repository);

    assertEquals(1, server.path("packages").size());
    JsonNode pkg = server.path("packages").get(0);
    for (Iterator<String> fields = pkg.fieldNames(); fields.hasNext(); ) {
      String field = fields.next();
      assertTrue(PACKAGE_FIELDS.contains(field), "a package may not hold " + field);
    }
    assertEquals("mcpb", pkg.path("registryType").asText());
    assertEquals("stdio", pkg.at("/transport/type").asText());
    assertEquals(version, pkg.path("version").asText());
    String identifier = pkg.path("identifier").asText();
    assertEquals(
        repository + "/releases/download/v" + version + "/" + bundle.getFileName(), identifier);
    assertTrue(identifier.contains("mcp"), "an MCPB URL must contain \"mcp\"");
    String sha256 = pkg.path("fileSha256").asText();
    assertTrue(sha256.matches("^[a-f0-9]{64}$"), sha256);
    assertEquals(sha256Of(bundle), sha256, "the SHA-256 of the bundle the build made");
  }

  private static String sha256Of(Path file) throws IOException, Exception {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    try (InputStream in = Files.newInputStream(file)) {
      byte[] buffer = new byte[1 << 16];
      for (int n; (n = in.read(buffer)) > 0; ) {
        digest.update(buffer, 0, n);
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }
}

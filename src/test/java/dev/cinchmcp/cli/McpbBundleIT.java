package dev.cinchmcp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.config.Settings;
import dev.cinchmcp.config.Version;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Claude Desktop bundle, {@code target/cinch-mcp.mcpb}: what is in it, what its manifest
 * promises, and that the jar inside starts the way the manifest says. (scripts/real-clients.sh
 * checks the same bundle with the mcpb tools themselves.)
 */
class McpbBundleIT {

  private static final Pattern USER_CONFIG = Pattern.compile("\\$\\{user_config\\.([a-z_]+)}");
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void holdsTheManifestAndTheJarAndNoDirectoryEntries() throws IOException {
    List<String> names = new ArrayList<>();
    try (ZipFile zip = new ZipFile(bundle().toFile())) {
      zip.stream().map(ZipEntry::getName).forEach(names::add);
    }
    // A "server/" entry makes the mcpb unpacker (and so Claude Desktop's install) fail.
    assertEquals(List.of("manifest.json", "server/cinch-mcp.jar"), names);
  }

  @Test
  void manifestRunsTheJarWithJavaAndMatchesThePom() throws IOException {
    JsonNode manifest = manifest();

    assertEquals(Version.get(), manifest.path("version").asText());
    assertEquals("binary", manifest.at("/server/type").asText());
    assertEquals("server/cinch-mcp.jar", manifest.at("/server/entry_point").asText());
    assertEquals("java", manifest.at("/server/mcp_config/command").asText());
    List<String> args = new ArrayList<>();
    manifest.at("/server/mcp_config/args").forEach(a -> args.add(a.asText()));
    // JVM flags may come before "-jar" (src/main/mcpb/README.md); the jar must come last.
    assertEquals(
        List.of("-jar", "${__dirname}/server/cinch-mcp.jar"),
        args.subList(args.size() - 2, args.size()));
    assertEquals("execute_code", manifest.at("/tools/0/name").asText());
    assertEquals(1, manifest.path("tools").size());
  }

  @Test
  void theKeyIsARequiredSensitiveSettingAndTheOthersHaveDefaults() throws IOException {
    JsonNode manifest = manifest();
    JsonNode userConfig = manifest.path("user_config");
    JsonNode env = manifest.at("/server/mcp_config/env");

    assertEquals("${user_config.api_key}", env.path(Settings.API_KEY).asText());
    assertTrue(userConfig.at("/api_key/sensitive").asBoolean(), "kept in the OS keychain");
    assertTrue(userConfig.at("/api_key/required").asBoolean());
    assertEquals(Settings.DEFAULT_BASE_URI.toString(), userConfig.at("/base_url/default").asText());
    assertEquals(
        Settings.DEFAULT_TIMEOUT.toMillis(), userConfig.at("/timeout_ms/default").asLong());
    for (Map.Entry<String, JsonNode> variable : env.properties()) {
      Matcher m = USER_CONFIG.matcher(variable.getValue().asText());
      assertTrue(m.matches(), variable.getKey());
      JsonNode setting = userConfig.path(m.group(1));
      assertFalse(
          setting.isMissingNode(), variable.getKey() + " uses an undeclared setting " + m.group(1));
      // Claude Desktop leaves an unset optional setting without a default as literal "${...}" text.
      assertTrue(
          setting.path("required").asBoolean() || setting.has("default"),
          m.group(1) + " needs a default");
    }
  }

  @Test
  void theJarInsideAnswersInitializeWhenStartedAsTheManifestSays(@TempDir Path dir)
      throws Exception {
    JsonNode manifest = manifest();
    Path jar = dir.resolve("server/cinch-mcp.jar");
    Files.createDirectories(jar.getParent());
    try (ZipFile zip = new ZipFile(bundle().toFile());
        InputStream in = zip.getInputStream(zip.getEntry("server/cinch-mcp.jar"))) {
      Files.copy(in, jar);
    }
    // The env block filled in as Claude Desktop does: the user's key, the defaults for the rest.
    Map<String, String> env = new HashMap<>();
    for (Map.Entry<String, JsonNode> variable :
        manifest.at("/server/mcp_config/env").properties()) {
      Matcher m = USER_CONFIG.matcher(variable.getValue().asText());
      assertTrue(m.matches());
      JsonNode setting = manifest.path("user_config").path(m.group(1));
      env.put(
          variable.getKey(), setting.has("default") ? setting.get("default").asText() : CliRun.KEY);
    }
    String initialize =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bundle-it\",\"version\":\"1\"}}}\n";

    JarProcess run = JarProcess.run(jar, env, initialize);

    assertEquals(0, run.exitCode(), run.err());
    JsonNode answer = json.readTree(run.out().lines().findFirst().orElseThrow());
    assertEquals("cinch-mcp", answer.at("/result/serverInfo/name").asText(), run.out());
    assertEquals(
        manifest.path("version").asText(), answer.at("/result/serverInfo/version").asText());
    assertTrue(
        run.err().contains("ready on stdio"),
        "the defaults make a usable configuration: " + run.err());
    assertFalse(run.shows(CliRun.KEY));
  }

  private JsonNode manifest() throws IOException {
    try (ZipFile zip = new ZipFile(bundle().toFile());
        InputStream in = zip.getInputStream(zip.getEntry("manifest.json"))) {
      return json.readTree(in);
    }
  }

  private static Path bundle() {
    String path = System.getProperty("cinch.mcpb");
    if (path == null || !Files.isRegularFile(Path.of(path))) {
      throw new IllegalStateException(
          "system property cinch.mcpb must name the built bundle (failsafe sets it), was " + path);
    }
    return Path.of(path);
  }
}

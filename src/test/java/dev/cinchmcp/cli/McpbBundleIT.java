package dev.cinchmcp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.config.Settings;
import dev.cinchmcp.config.Version;
import dev.cinchmcp.launch.LaunchOptions;
import dev.cinchmcp.testkit.Dependency;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Claude Desktop bundle, {@code target/cinch-mcp-<os>-<arch>.mcpb}: what is in it, what its
 * manifest promises, and that it runs, unpacked anywhere, with its own Java runtime, on a machine
 * with a JDK and on one without. (scripts/real-clients.sh checks the same bundle with the mcpb
 * tools themselves.)
 */
class McpbBundleIT {

  private static final Pattern USER_CONFIG = Pattern.compile("\\$\\{user_config\\.([a-z_]+)}");
  private static final String DIRNAME = "${__dirname}";
  private static final String JAVA =
      System.getProperty("os.name").startsWith("Windows")
          ? "runtime/bin/java.exe"
          : "runtime/bin/java";
  private final ObjectMapper json = new ObjectMapper();

  @Test
  void holdsTheManifestTheJarItsAotCacheAndARuntime() throws IOException {
    List<String> names = new ArrayList<>();
    try (ZipFile zip = new ZipFile(bundle().toFile())) {
      zip.stream().map(ZipEntry::getName).forEach(names::add);
    }
    // A "server/" entry makes the mcpb unpacker (and so Claude Desktop's install) fail.
    assertTrue(names.stream().noneMatch(n -> n.endsWith("/")), "no directory entries");
    for (String needed :
        List.of(
            "manifest.json",
            "server/cinch-mcp.jar",
            "server/cinch-mcp.aot",
            JAVA,
            "runtime/lib/modules")) {
      assertTrue(names.contains(needed), needed + " in " + names.size() + " entries");
    }
  }

  @Test
  void manifestStartsTheBundledJavaWithTheFastLaunchOptions() throws IOException {
    JsonNode manifest = manifest();

    assertEquals(Version.get(), manifest.path("version").asText());
    assertEquals("binary", manifest.at("/server/type").asText());
    assertEquals(JAVA, manifest.at("/server/entry_point").asText());
    assertEquals(DIRNAME + "/" + JAVA, manifest.at("/server/mcp_config/command").asText());
    // The options for the bundle's own Java (its [java 25+] lines), not for the JVM of this test.
    List<String> expected = new ArrayList<>(LaunchOptions.forJava(runtimeFeature()));
    expected.add("-XX:AOTCache=" + DIRNAME + "/server/cinch-mcp.aot");
    expected.add("-jar");
    expected.add(DIRNAME + "/server/cinch-mcp.jar");
    assertEquals(expected, args(manifest));
    assertEquals("execute_code", manifest.at("/tools/0/name").asText());
    assertEquals(1, manifest.path("tools").size());
    assertEquals(
        List.of(buildInfo().getProperty("bundle.platform")),
        List.of(manifest.at("/compatibility/platforms/0").asText()));
    assertFalse(manifest.toString().contains("@bundle."), "every placeholder was filled");
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
  void unpackedElsewhereItAnswersWithItsOwnJavaAndItsAotCache(@TempDir Path dir) throws Exception {
    // -XX:AOTMode=on: the JVM refuses to start unless the bundle's AOT cache maps, so a cache that
    // did not survive being unpacked to another place fails here instead of only costing speed.
    List<String> command = command(unpack(dir), "-XX:AOTMode=on");
    Answer answer = run(command, manifest());
    assertEquals(0, answer.exitCode, answer.err);
    assertTrue(answer.err.contains("ready on stdio"), answer.err);
  }

  @Test
  void itRunsWhereNoJavaIsInstalled(@TempDir Path dir) throws Exception {
    Path jvms = Path.of("/usr/lib/jvm");
    assumeTrue(
        "root".equals(System.getProperty("user.name"))
            && Files.isDirectory(jvms)
            && Files.isExecutable(Path.of("/usr/bin/unshare")),
        "hiding the JDKs needs root, unshare and /usr/lib/jvm");
    Path empty = Files.createDirectory(dir.resolve("empty"));
    List<String> server = command(unpack(dir.resolve("bundle")), null);
    // A private mount namespace where /usr/lib/jvm is an empty directory and no java is on PATH
    // (/usr/bin/java points into /usr/lib/jvm): the machine of a user who never installed Java.
    String script =
        "mount --bind \"$0\" /usr/lib/jvm"
            + " && if command -v java >/dev/null || ls /usr/lib/jvm/* >/dev/null 2>&1;"
            + " then echo 'a java is still visible' >&2; exit 97; fi"
            + " && exec \"$@\"";
    List<String> command = new ArrayList<>(List.of("unshare", "-m", "sh", "-c", script));
    command.add(empty.toString());
    command.addAll(server);
    Answer answer = run(command, manifest());
    assertEquals(0, answer.exitCode, answer.err);
  }

  private record Answer(int exitCode, String out, String err) {}

  /** Starts the command with the manifest's env filled as Claude Desktop does; sends initialize. */
  private Answer run(List<String> command, JsonNode manifest) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().keySet().removeIf(k -> k.startsWith("CINCH_") || k.startsWith("JAVA"));
    pb.environment().put("PATH", "/usr/local/bin:/usr/bin:/bin");
    for (Map.Entry<String, JsonNode> variable :
        manifest.at("/server/mcp_config/env").properties()) {
      Matcher m = USER_CONFIG.matcher(variable.getValue().asText());
      assertTrue(m.matches());
      JsonNode setting = manifest.path("user_config").path(m.group(1));
      pb.environment()
          .put(
              variable.getKey(),
              setting.has("default") ? setting.get("default").asText() : CliRun.KEY);
    }
    Path err = Files.createTempFile("bundle-it", ".err");
    pb.redirectError(err.toFile());
    Process p = pb.start();
    String initialize =
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
            + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bundle-it\",\"version\":\"1\"}}}\n";
    p.getOutputStream().write(initialize.getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the bundle's server did not exit");
    String errText = Files.readString(err);
    Files.delete(err);
    List<String> lines = out.lines().toList();
    assertEquals(1, lines.size(), "stdout holds the reply alone: " + out + "\n" + errText);
    JsonNode answer = json.readTree(lines.get(0));
    assertEquals("cinch-mcp", answer.at("/result/serverInfo/name").asText(), out);
    assertEquals(
        manifest.path("version").asText(), answer.at("/result/serverInfo/version").asText());
    assertFalse(errText.contains(CliRun.KEY) || out.contains(CliRun.KEY));
    return new Answer(p.exitValue(), out, errText);
  }

  /** The manifest's command line, ${__dirname} filled in; an extra JVM option before -jar. */
  private List<String> command(Path unpacked, String extraOption) throws IOException {
    JsonNode manifest = manifest();
    String dir = unpacked.toString();
    List<String> command = new ArrayList<>();
    command.add(manifest.at("/server/mcp_config/command").asText().replace(DIRNAME, dir));
    for (String arg : args(manifest)) {
      if (arg.equals("-jar") && extraOption != null) {
        command.add(extraOption);
      }
      command.add(arg.replace(DIRNAME, dir));
    }
    return command;
  }

  /** Unpacks the bundle as the mcpb tools do (they keep the zip's execute bits; so does this). */
  private Path unpack(Path dir) throws IOException {
    try (ZipFile zip = new ZipFile(bundle().toFile())) {
      for (ZipEntry entry : zip.stream().toList()) {
        Path file = dir.resolve(entry.getName()).normalize();
        assertTrue(file.startsWith(dir), entry.getName());
        Files.createDirectories(file.getParent());
        try (InputStream in = zip.getInputStream(entry)) {
          Files.copy(in, file);
        }
        if (entry.getName().startsWith("runtime/bin/")
            || entry.getName().endsWith("jspawnhelper")) {
          assertTrue(file.toFile().setExecutable(true), file.toString());
        }
      }
    }
    return dir;
  }

  /** The bundled runtime's feature version, from its release file (JAVA_VERSION="25.0.3"). */
  private int runtimeFeature() throws IOException {
    try (ZipFile zip = new ZipFile(bundle().toFile());
        InputStream in = zip.getInputStream(zip.getEntry("runtime/release"))) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.startsWith("JAVA_VERSION=\"")) {
          return Integer.parseInt(line.substring(14).split("[.\"+-]")[0]);
        }
      }
    }
    throw new AssertionError("no JAVA_VERSION in the bundle's runtime/release");
  }

  private static List<String> args(JsonNode manifest) {
    List<String> args = new ArrayList<>();
    manifest.at("/server/mcp_config/args").forEach(a -> args.add(a.asText()));
    return args;
  }

  private JsonNode manifest() throws IOException {
    try (ZipFile zip = new ZipFile(bundle().toFile());
        InputStream in = zip.getInputStream(zip.getEntry("manifest.json"))) {
      return json.readTree(in);
    }
  }

  /** What the build wrote about the bundle (target/bundle/bundle.properties). */
  static Properties buildInfo() throws IOException {
    String dir = System.getProperty("cinch.bundle.dir");
    if (dir == null) {
      throw new IllegalStateException(
          "system property cinch.bundle.dir is not set (failsafe sets it)");
    }
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(Path.of(dir, "bundle.properties"))) {
      p.load(in);
    }
    return p;
  }

  /**
   * The built bundle. A build without a JDK 25+ makes none and says why; the test is then skipped,
   * unless CINCH_REQUIRE_BUNDLE=1 (CI) says the bundle must be there.
   */
  static Path bundle() throws IOException {
    Properties info = buildInfo();
    String skipped = info.getProperty("bundle.skipped");
    if (skipped != null) {
      Dependency.assumePresent(
          "1".equals(System.getenv("CINCH_REQUIRE_BUNDLE")),
          false,
          "no bundle was built: " + skipped);
    }
    Path dir = Path.of(System.getProperty("cinch.bundle.dir")).getParent();
    return dir.resolve(info.getProperty("bundle.name") + ".mcpb");
  }
}

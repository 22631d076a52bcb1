package dev.cinchmcp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cinchmcp.backend.SandboxFacts;
import dev.cinchmcp.config.DockerOptions;
import dev.cinchmcp.config.SandboxLimits;
import dev.cinchmcp.config.Settings;
import dev.cinchmcp.config.Version;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CliTest {

  @Test
  void helpSaysWhatItIsAndListsEveryVariableWithItsDefaultTheFlagsAndTheExitCodes() {
    CliRun run = CliRun.of(Map.of(), "--help");

    assertEquals(0, run.exitCode());
    assertEquals("", run.err());
    for (String expected :
        List.of(
            "MCP server",
            "execute_code",
            "CINCH_API_KEY",
            "CINCH_BASE_URL",
            "https://api.cinch.codes",
            "CINCH_TIMEOUT_MS",
            "20000",
            "CINCH_LOG_LEVEL",
            "CINCH_BACKEND",
            "CINCH_RUNSC",
            "CINCH_FAST_START",
            "--check",
            "--version",
            "--help",
            "Exit codes",
            "usage error")) {
      assertTrue(
          run.out().contains(expected),
          () -> "--help should mention " + expected + ":\n" + run.out());
    }
  }

  @Test
  void helpStatesTheSandboxFactsFromTheirOneSource() {
    String out = CliRun.of(Map.of(), "--help").out().replaceAll("\\s+", " ");

    for (String fact :
        List.of(
            SandboxFacts.SERVICE_RUNTIMES,
            SandboxFacts.SERVICE_LIMITS,
            SandboxFacts.fileSystem(),
            SandboxFacts.outputCut())) {
      assertTrue(out.contains(fact), () -> "--help should state: " + fact + "\n" + out);
    }
  }

  /** --help writes defaults and bounds out: they must be those the server reads with. */
  @Test
  void helpStatesEveryDefaultAndBoundAsTheServerReadsThem() {
    String out = CliRun.of(Map.of(), "--help").out().replaceAll("\\s+", " ");
    SandboxLimits limits = SandboxLimits.SERVICE;
    for (String said :
        List.of(
            Cli.USAGE_LINE,
            "(default " + Settings.DEFAULT_BASE_URI + ")",
            "in ms (default " + Settings.DEFAULT_TIMEOUT.toMillis() + ")",
            "0 to %d (default %d); 0: every local run"
                .formatted(Settings.MAX_LOCAL_POOL, Settings.DEFAULT_LOCAL_POOL),
            "seconds (%d to %d, default %d)"
                .formatted(
                    SandboxLimits.MIN_TIME_LIMIT_SECONDS,
                    SandboxLimits.MAX_TIME_LIMIT_SECONDS,
                    limits.timeLimitSeconds()),
            "MB of memory (%d to %d, default %d)"
                .formatted(
                    SandboxLimits.MIN_MEMORY_MEGABYTES,
                    SandboxLimits.MAX_MEMORY_MEGABYTES,
                    limits.memoryMegabytes()),
            "CPUs (%s to this machine's cores, default %s)"
                .formatted(
                    SandboxLimits.number(SandboxLimits.MIN_CPUS),
                    SandboxLimits.number(limits.cpus())),
            "(default %s, %s)"
                .formatted(DockerOptions.DEFAULT_PYTHON_IMAGE, DockerOptions.DEFAULT_NODE_IMAGE),
            "0 to %d (default %d); 0: every docker run"
                .formatted(DockerOptions.MAX_POOL, DockerOptions.DEFAULT_POOL),
            "stderr: " + String.join(", ", Cli.LOG_LEVELS) + " (default " + Cli.DEFAULT_LOG_LEVEL,
            Cli.OK + " success",
            Cli.CHECK_FAILED + " --check found a problem",
            Cli.USAGE + " usage error")) {
      assertTrue(out.contains(said), () -> "--help should say: " + said + "\n" + out);
    }
  }

  @Test
  void helpLinesFitAHundredColumns() {
    for (String line : CliRun.of(Map.of(), "--help").out().split("\n")) {
      assertTrue(line.length() <= 100, line);
    }
  }

  @Test
  void shortHelpFlagIsTheSameAsTheLongOne() {
    assertEquals(CliRun.of(Map.of(), "--help").out(), CliRun.of(Map.of(), "-h").out());
  }

  @Test
  void versionPrintsNameAndVersionOnOneLine() {
    CliRun run = CliRun.of(Map.of(), "--version");

    assertEquals(0, run.exitCode());
    assertEquals("cinch-mcp " + Version.get() + "\n", run.out());
  }

  @Test
  void unknownFlagIsAUsageErrorOnStderrWithExitCode2() {
    CliRun run = CliRun.of(Map.of(), "--bogus");

    assertEquals(2, run.exitCode());
    assertEquals("", run.out());
    assertTrue(run.err().contains("unknown option: --bogus"), run.err());
    assertTrue(run.err().contains("Usage:"), run.err());
  }

  @Test
  void flagsDoNotCombine() {
    CliRun run = CliRun.of(Map.of(), "--check", "--version");

    assertEquals(2, run.exitCode());
    assertEquals("", run.out());
  }

  @Test
  void withNoFlagItServesMcpAndWritesOnlyJsonRpcOnStdout() throws Exception {
    String requests =
        String.join(
            "\n",
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
            "");

    CliRun run = CliRun.withInput(requests, Map.of("CINCH_API_KEY", CliRun.KEY), new String[0]);

    assertEquals(0, run.exitCode());
    List<String> lines = run.out().lines().toList();
    assertEquals(2, lines.size(), run.out());
    ObjectMapper json = new ObjectMapper();
    for (String line : lines) {
      JsonNode message = json.readTree(line);
      assertEquals("2.0", message.path("jsonrpc").asText(), line);
    }
    assertEquals("cinch-mcp", json.readTree(lines.get(0)).at("/result/serverInfo/name").asText());
    assertFalse(run.showsKey()); // the log goes to the process's stderr, which the jar test covers
  }
}

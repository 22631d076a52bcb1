package dev.cinchmcp.backend.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cinchmcp.backend.Language;
import dev.cinchmcp.config.SandboxLimits;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each wall of the container as the field that makes it; the ITs prove each holds. */
class ContainerSpecTest {

  private final DockerSettings settings =
      DockerSettings.of("py:1", "node:1", null, Map.of(), SandboxLimits.SERVICE);

  private ContainerRun.Parts parts(boolean gvisor) {
    RuntimeChoice runtime = new RuntimeChoice(gvisor ? "runsc" : null, gvisor, "", null);
    return new ContainerRun.Parts(null, new Labels("m", 1, 2), settings, runtime, null, null);
  }

  private JsonNode spec(Language language, boolean gvisor) {
    return ContainerSpec.of(parts(gvisor), language, 42);
  }

  @Test
  void theWallsOfTheLocalBackend() {
    JsonNode host = spec(Language.PYTHON, false).path("HostConfig");
    assertEquals("none", host.path("NetworkMode").asText());
    assertTrue(host.path("ReadonlyRootfs").asBoolean());
    assertTrue(host.path("Tmpfs").path("/tmp").asText().contains("size=64m"));
    assertEquals(256L << 20, host.path("Memory").asLong());
    assertEquals(256L << 20, host.path("MemorySwap").asLong(), "no swap");
    assertEquals(500_000_000L, host.path("NanoCpus").asLong());
    assertEquals("ALL", host.path("CapDrop").get(0).asText());
    assertEquals("no-new-privileges", host.path("SecurityOpt").get(0).asText());
    assertEquals(0, host.path("Binds").size(), "nothing of the host mounted");
    assertTrue(host.path("AutoRemove").asBoolean());
    assertEquals(64, host.path("PidsLimit").asInt());
    assertFalse(host.has("Runtime"), "the engine's default runtime: no field");
  }

  @Test
  void theProgramRunsAsNobodyWithAFreshEnvironmentAndABackstop() {
    JsonNode spec = spec(Language.PYTHON, false);
    assertEquals("65534:65534", spec.path("User").asText());
    assertEquals(
        "[\"PATH=/usr/local/bin:/usr/bin:/bin\",\"HOME=/tmp\",\"LANG=C.UTF-8\",\"LC_CTYPE=C.UTF-8\"]",
        spec.path("Env").toString());
    assertEquals(0, spec.path("Entrypoint").size(), "the image's entrypoint does not run");
    JsonNode cmd = spec.path("Cmd");
    assertEquals("timeout -s KILL 11 python3 -c", text(cmd, 0, 6));
    assertEquals("42", cmd.get(7).asText(), "the reader takes the code's length");
    assertEquals(Labels.OWNER, spec.path("Labels").fieldNames().next());
    assertTrue(spec.path("NetworkDisabled").asBoolean());
    assertTrue(spec.path("StdinOnce").asBoolean());
  }

  @Test
  void nodeGetsAHeapLimitBelowItsMemory() {
    JsonNode cmd = spec(Language.JAVASCRIPT, false).path("Cmd");
    assertEquals("timeout -s KILL 11 node --max-old-space-size=192 -e", text(cmd, 0, 7));
  }

  @Test
  void underGvisorThePidsLimitLeavesRoomForItsThreadsAndNprocHoldsTheProgram() {
    JsonNode host = spec(Language.PYTHON, true).path("HostConfig");
    assertEquals("runsc", host.path("Runtime").asText());
    assertEquals(128 + 32 * 64, host.path("PidsLimit").asInt());
    assertEquals(
        "{\"Name\":\"nproc\",\"Soft\":64,\"Hard\":64}", host.path("Ulimits").get(1).toString());
  }

  @Test
  void aContainerStartedAheadHasEveryFieldOfAColdOneButItsCommand() {
    for (Language language : Language.values()) {
      for (boolean gvisor : new boolean[] {false, true}) {
        ObjectNode cold = ContainerSpec.of(parts(gvisor), language, 42);
        ObjectNode waiting = ContainerSpec.waiting(parts(gvisor), language, Duration.ofMinutes(15));
        JsonNode coldCmd = cold.remove("Cmd");
        JsonNode waitingCmd = waiting.remove("Cmd");
        assertEquals(cold, waiting, language + (gvisor ? " gVisor" : ""));
        // The same interpreter with the same options as the cold run.
        int options = language == Language.PYTHON ? 1 : 2;
        assertEquals(text(coldCmd, 4, 4 + options), text(waitingCmd, 6, 6 + options));
      }
    }
  }

  @Test
  void aContainerStartedAheadCountsItsTimeLimitFromTheHandOver() {
    JsonNode cmd =
        ContainerSpec.waiting(parts(false), Language.PYTHON, Duration.ofMinutes(15)).path("Cmd");
    // SIGCONT from the launcher at hand-over arms -k: SIGKILL 11 s later; 900 s unused at most.
    assertEquals("timeout -s CONT -k 11 900 python3 -c", text(cmd, 0, 8));
    assertEquals(ContainerSpec.CODE_DIR + "/main.py", cmd.get(9).asText());
    JsonNode node =
        ContainerSpec.waiting(parts(false), Language.JAVASCRIPT, Duration.ofMinutes(15))
            .path("Cmd");
    assertEquals("timeout -s CONT -k 11 900 node --max-old-space-size=192 -e", text(node, 0, 9));
  }

  private static String text(JsonNode array, int from, int to) {
    StringBuilder out = new StringBuilder();
    for (int i = from; i < to; i++) {
      out.append(i == from ? "" : " ").append(array.get(i).asText());
    }
    return out.toString();
  }
}

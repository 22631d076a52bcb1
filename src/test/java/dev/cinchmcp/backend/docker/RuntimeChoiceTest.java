package dev.cinchmcp.backend.docker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class RuntimeChoiceTest {

  @Test
  void gvisorWhenTheEngineOffersIt() {
    RuntimeChoice choice = RuntimeChoice.of(null, Set.of("runc", "runsc"), "runc", false);
    assertEquals("runsc", choice.runtime());
    assertTrue(choice.gvisor());
    assertEquals("gVisor", choice.shortIsolation());
  }

  @Test
  void onMacosAndWindowsTheDefaultRuntimeInTheEnginesVm() {
    RuntimeChoice choice =
        RuntimeChoice.of(null, Set.of("runc", "io.containerd.runc.v2"), "runc", true);
    assertNull(choice.runtime()); // the engine's default: no Runtime field sent
    assertNull(choice.problem());
    assertFalse(choice.gvisor());
    assertTrue(choice.isolation().contains("own Linux VM"), choice.isolation());
  }

  @Test
  void onLinuxAPlainContainerOnlyWhenAskedFor() {
    RuntimeChoice refused = RuntimeChoice.of(null, Set.of("runc"), "runc", false);
    assertTrue(refused.problem().contains("CINCH_DOCKER_RUNTIME=runc"), refused.problem());
    RuntimeChoice asked = RuntimeChoice.of("runc", Set.of("runc"), "runc", false);
    assertNull(asked.problem());
    assertEquals("runc", asked.runtime());
    assertTrue(asked.isolation().contains("shares this machine's kernel"), asked.isolation());
  }

  @Test
  void aRuntimeTheEngineLacksIsAProblemThatListsWhatItHas() {
    RuntimeChoice choice = RuntimeChoice.of("runsc", Set.of("runc", "crun"), "runc", true);
    assertTrue(choice.problem().contains("no runtime \"runsc\" (it has crun, runc)"));
  }

  @Test
  void dockerDesktopOnLinuxRunsItsOwnVm() {
    assertTrue(RuntimeChoice.ownVm(true, "Docker Desktop"));
    assertFalse(RuntimeChoice.ownVm(true, "Debian GNU/Linux 12 (bookworm)"));
    assertTrue(RuntimeChoice.ownVm(false, "OrbStack"));
  }
}

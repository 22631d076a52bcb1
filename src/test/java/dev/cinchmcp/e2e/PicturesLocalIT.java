package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.GVISOR;

import dev.cinchmcp.testkit.Requires;
import java.util.Map;

/** Pictures and files out on the local gVisor backend, every run cold (no sandbox waits). */
@Requires(GVISOR)
class PicturesLocalIT extends PictureCases {
  @Override
  Map<String, String> environment() {
    return Map.of("CINCH_LOCAL_POOL", "0");
  }
}

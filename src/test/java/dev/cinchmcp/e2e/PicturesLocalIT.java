package dev.cinchmcp.e2e;

import dev.cinchmcp.testkit.RequiresGvisor;
import java.util.Map;

/** Pictures and files out on the local gVisor backend, every run cold (no sandbox waits). */
@RequiresGvisor
class PicturesLocalIT extends PictureCases {
  @Override
  Map<String, String> environment() {
    return Map.of("CINCH_LOCAL_POOL", "0");
  }
}

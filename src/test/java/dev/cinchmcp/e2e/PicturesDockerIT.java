package dev.cinchmcp.e2e;

import static dev.cinchmcp.testkit.Requires.Need.ENGINE;

import dev.cinchmcp.testkit.DockerCli;
import dev.cinchmcp.testkit.Requires;
import java.util.Map;

/**
 * Pictures and files out on the docker backend (runc, the engine's plain runtime), in the test
 * image that .ci/engine.sh builds from the host's python3 and node: standard library only there.
 */
@Requires(ENGINE)
class PicturesDockerIT extends PictureCases {
  @Override
  Map<String, String> environment() {
    return DockerCli.jarEnvironment("runc");
  }
}

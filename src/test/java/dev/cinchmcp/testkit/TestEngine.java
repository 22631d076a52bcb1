package dev.cinchmcp.testkit;

/** The container engine the engine tests use ({@code @Requires(ENGINE)}), and its test image. */
public final class TestEngine {

  private TestEngine() {}

  public static String host() {
    String host = System.getenv("CINCH_TEST_DOCKER_HOST");
    if (host == null || host.isBlank()) {
      host = System.getenv("DOCKER_HOST");
    }
    return host == null || host.isBlank() ? "unix:///var/run/docker.sock" : host;
  }

  public static String image() {
    String image = System.getenv("CINCH_TEST_IMAGE");
    return image == null || image.isBlank() ? "cinch-test:1" : image;
  }

  public static boolean required() {
    return System.getenv("CINCH_REQUIRE_ENGINE") != null;
  }
}

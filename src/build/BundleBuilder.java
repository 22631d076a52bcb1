// Builds the Claude Desktop bundle's contents for this operating system: a jlink runtime of the
// few modules the server needs, the jar, and an AOT cache made by that runtime, plus the manifest
// that starts them with the fast launch's options. Run by the pom (maven-antrun) with the source
// launcher, after the jar is shaded:
//
//   java src/build/BundleBuilder.java TARGET_DIR VERSION [BUNDLE_JDK]
//
// BUNDLE_JDK is a JDK 25 or later (its jlink makes the runtime); without one (or with an older
// one) the JDKs of the build and under /usr/lib/jvm, /Library/Java/JavaVirtualMachines and
// $JAVA_HOME_25_* are tried. Where none is found the bundle is skipped, and
// TARGET_DIR/bundle/bundle.properties says why. Its output goes to TARGET_DIR/bundle/.

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

public class BundleBuilder {

  /**
   * The modules the server needs. jdeps also names java.desktop and java.sql, for Jackson's
   * optional java.beans and java.sql support, which the server never uses (Jackson checks for them
   * and does without); leaving them out keeps 15 MB out of every bundle. McpbBundleIT runs the
   * server from the unpacked bundle, so a missing module fails the build.
   */
  static final String MODULES = "java.base,java.net.http,java.logging,jdk.unsupported";

  static final int MIN_FEATURE = 25; // the AOT cache (JEP 514), and it survives being moved

  public static void main(String[] args) throws Exception {
    Path target = Path.of(args[0]).toAbsolutePath();
    String version = args[1];
    String given = args.length > 2 ? args[2] : "";
    Path out = target.resolve("bundle");
    deleteTree(out);
    Files.createDirectories(out);
    Optional<Path> jdk = findJdk(given);
    if (jdk.isEmpty()) {
      String why =
          "no JDK " + MIN_FEATURE + "+ with jlink found (pass -Dbundle.jdk=/path/to/jdk-25)";
      Files.writeString(out.resolve("bundle.properties"), "bundle.skipped=" + why + "\n");
      System.out.println("[bundle] skipped: " + why);
      return;
    }
    String platform = platform();
    String name = "cinch-mcp-" + platform + "-" + arch();
    Path stage = out.resolve(name);
    Path runtime = stage.resolve("runtime");
    Path server = stage.resolve("server");
    Files.createDirectories(server);
    System.out.println("[bundle] " + name + ": runtime from " + jdk.get());
    run(
        List.of(
            jdk.get().resolve("bin").resolve(exe("jlink")).toString(),
            "--add-modules",
            MODULES,
            "--strip-debug",
            "--no-man-pages",
            "--no-header-files",
            "--output",
            runtime.toString()),
        Map.of(),
        null);
    Path jar = server.resolve("cinch-mcp.jar");
    Files.copy(target.resolve("cinch-mcp.jar"), jar);

    // The fast launch's options (jvm-options.txt, their one place) for the bundle's own Java, read by
    // the server's own code from the jar on this program's class path.
    List<String> options = dev.cinchmcp.launch.LaunchOptions.forJava(feature(jdk.get()));
    List<String> training = new ArrayList<>();
    training.add(runtime.resolve("bin").resolve(exe("java")).toString());
    training.addAll(options);
    training.add("-XX:AOTCacheOutput=" + server.resolve("cinch-mcp.aot"));
    training.add("-Dcinch.archive.training=true");
    training.add("-jar");
    training.add(jar.toString());
    run(
        training,
        Map.of(
            "CINCH_API_KEY", "training-key",
            "CINCH_BASE_URL", "http://127.0.0.1:9",
            "CINCH_TIMEOUT_MS", "2000",
            "CINCH_BACKEND", "cinch"),
        out.resolve("training.log"));
    Files.deleteIfExists(server.resolve("cinch-mcp.aot.config"));
    if (!Files.isRegularFile(server.resolve("cinch-mcp.aot"))) {
      throw new IllegalStateException("the training run made no AOT cache; see " + out);
    }

    String dir = "${__dirname}";
    String java = dir + "/runtime/bin/" + exe("java");
    List<String> args2 = new ArrayList<>(options);
    args2.add("-XX:AOTCache=" + dir + "/server/cinch-mcp.aot");
    args2.add("-jar");
    args2.add(dir + "/server/cinch-mcp.jar");
    String manifest =
        Files.readString(target.resolve("mcpb").resolve("manifest.json"))
            .replace("\"@bundle.command@\"", json(java))
            .replace("\"@bundle.entry_point@\"", json("runtime/bin/" + exe("java")))
            .replace("\"@bundle.args@\"", args2.stream().map(BundleBuilder::json)
                .collect(Collectors.joining(", ", "[", "]")))
            .replace("\"@bundle.platform@\"", json(platform));
    if (manifest.contains("@bundle.")) {
      throw new IllegalStateException("manifest.json holds a placeholder this builder does not fill");
    }
    Files.writeString(stage.resolve("manifest.json"), manifest);
    Files.writeString(
        out.resolve("bundle.properties"),
        "bundle.name=" + name + "\nbundle.stage=" + stage.toString().replace('\\', '/') + "\n"
            + "bundle.platform=" + platform + "\n");
    System.out.println("[bundle] staged " + stage);
  }

  static Optional<Path> findJdk(String given) throws IOException {
    Set<Path> candidates = new LinkedHashSet<>();
    if (!given.isBlank() && !given.startsWith("${")) {
      candidates.add(Path.of(given));
    }
    candidates.add(Path.of(System.getProperty("java.home")));
    for (Map.Entry<String, String> e : System.getenv().entrySet()) {
      if (e.getKey().startsWith("JAVA_HOME_")) {
        candidates.add(Path.of(e.getValue()));
      }
    }
    for (String root : List.of("/usr/lib/jvm", "/Library/Java/JavaVirtualMachines")) {
      Path dir = Path.of(root);
      if (Files.isDirectory(dir)) {
        try (Stream<Path> s = Files.list(dir)) {
          s.sorted().forEach(p -> {
            candidates.add(p);
            candidates.add(p.resolve("Contents").resolve("Home"));
          });
        }
      }
    }
    for (Path jdk : candidates) {
      if (Files.isRegularFile(jdk.resolve("bin").resolve(exe("jlink"))) && feature(jdk) >= MIN_FEATURE) {
        return Optional.of(jdk.toRealPath());
      }
    }
    return Optional.empty();
  }

  /** The feature version from the JDK's release file (JAVA_VERSION="25.0.3"), 0 if unknown. */
  static int feature(Path jdk) {
    try {
      for (String line : Files.readAllLines(jdk.resolve("release"))) {
        if (line.startsWith("JAVA_VERSION=")) {
          String v = line.substring(13).replace("\"", "");
          return Integer.parseInt(v.split("[.+-]")[0]);
        }
      }
    } catch (IOException | RuntimeException e) {
      // not a JDK we can use
    }
    return 0;
  }

  /** Claude Desktop's platform names (Node's process.platform). */
  static String platform() {
    String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    return os.startsWith("windows") ? "win32" : os.startsWith("mac") ? "darwin" : "linux";
  }

  static String arch() {
    String arch = System.getProperty("os.arch");
    return arch.equals("amd64") || arch.equals("x86_64") ? "x64" : arch.equals("aarch64") ? "arm64" : arch;
  }

  static String exe(String name) {
    return platform().equals("win32") ? name + ".exe" : name;
  }

  static String json(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  static void run(List<String> command, Map<String, String> env, Path log) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().putAll(env);
    pb.redirectInput(ProcessBuilder.Redirect.PIPE);
    if (log == null) {
      pb.inheritIO();
    } else {
      pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      pb.redirectError(log.toFile());
    }
    Process p = pb.start();
    p.getOutputStream().close();
    if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
      p.destroyForcibly();
      throw new IllegalStateException("failed: " + String.join(" ", command));
    }
  }

  static void deleteTree(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> s = Files.walk(dir)) {
        for (Path p : s.sorted((a, b) -> b.compareTo(a)).toList()) {
          Files.delete(p);
        }
      }
    }
  }
}

package dev.cinchmcp;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Gives a plain {@code java -jar cinch-mcp.jar} the recommended launch's start-up, when it can.
 *
 * <p>JVM options cannot be set from inside a jar, and a plain launch loads some two thousand
 * classes the slow way. So when the JVM was started with no options at all, on Linux, and the build
 * left its class-data archive beside the jar made by this very JVM, the server is started again as
 * a child with the options of {@code launch-args.txt}: that costs one small JVM start and saves
 * several times it. The child inherits stdin, stdout and stderr as they are (nothing is copied
 * through this process); a SIGTERM here is passed on, and the child's exit status is returned (were
 * this process killed outright, the child still ends when the client closes stdin). In every other
 * case nothing happens and the server runs in this JVM, as before. {@code CINCH_FAST_START=0} turns
 * it off.
 */
final class FastStart {

  /** Set in the child, so that it never starts another. */
  static final String CHILD_MARKER = "cinch.faststart.child";

  private FastStart() {}

  /** Runs the server in a faster child JVM and returns its exit status, or empty to run it here. */
  static OptionalInt relaunch(String[] args) {
    if (args.length != 0
        || System.getProperty(CHILD_MARKER) != null
        || "0".equals(System.getenv("CINCH_FAST_START"))) {
      return OptionalInt.empty();
    }
    try {
      Path jar =
          Path.of(FastStart.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      List<String> options = options(jar);
      if (options.isEmpty() || !startedPlain()) {
        return OptionalInt.empty();
      }
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(options);
      command.add("-D" + CHILD_MARKER + "=true");
      command.add("-jar");
      command.add(jar.toString());
      Process child = new ProcessBuilder(command).inheritIO().start();
      // A SIGTERM here (a client stopping the server) is passed on; the child answers what it owes,
      // exits, and this process ends with the same status.
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    child.destroy();
                    try {
                      Runtime.getRuntime().halt(child.waitFor());
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  },
                  "cinch-faststart-forward"));
      return OptionalInt.of(child.waitFor());
    } catch (IOException | URISyntaxException | RuntimeException e) {
      return OptionalInt.empty(); // run here, at normal speed
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return OptionalInt.empty();
    }
  }

  /**
   * The options of launch-args.txt, if the build left them beside the jar with an archive made by
   * this same JVM (an archive of another build would be ignored: a relaunch would only cost time).
   */
  static List<String> options(Path jar) throws IOException {
    Path argsFile = jar.resolveSibling("launch-args.txt");
    Path stamp = jar.resolveSibling("cinch-mcp.jsa.jvm");
    if (!Files.isRegularFile(argsFile)
        || !Files.isRegularFile(stamp)
        || !Files.readString(stamp).strip().equals(jvmIdentity())) {
      return List.of();
    }
    List<String> options = new ArrayList<>();
    for (String line : Files.readAllLines(argsFile)) {
      String option = line.strip();
      if (option.startsWith("-XX:SharedArchiveFile=")
          && !Files.isRegularFile(Path.of(option.substring(22)))) {
        return List.of();
      }
      if (!option.isEmpty() && !option.startsWith("#")) {
        options.add(option);
      }
    }
    return options;
  }

  /** The build writes the same string into cinch-mcp.jsa.jvm (see the pom). */
  static String jvmIdentity() {
    return System.getProperty("java.vm.version") + " " + System.getProperty("java.home");
  }

  /**
   * Whether this JVM got no options at all: exactly {@code java -jar <jar>} (Linux's /proc tells).
   */
  private static boolean startedPlain() throws IOException {
    Path cmdline = Path.of("/proc/self/cmdline");
    if (!Files.isReadable(cmdline)) {
      return false;
    }
    String[] words = new String(Files.readAllBytes(cmdline), StandardCharsets.UTF_8).split("\0");
    return words.length == 3 && "-jar".equals(words[1]);
  }
}

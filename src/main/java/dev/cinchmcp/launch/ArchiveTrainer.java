package dev.cinchmcp.launch;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The process that makes a {@link SelfMadeArchive}: {@code java -cp cinch-mcp.jar
 * dev.cinchmcp.launch.ArchiveTrainer JAR}. It holds a lock so that only one trainer per archive
 * works at a time, runs the server once on the training input with the archive-making option (the
 * JVM writes the archive under a temporary name as that run exits), checks what was written, and
 * renames it into place in one atomic step. It prints nothing; its exit status says whether an
 * archive was made.
 */
public final class ArchiveTrainer {

  /** Longest a training run may take; it normally takes 2-5 s. */
  private static final long TRAINING_LIMIT_SECONDS = 120;

  private ArchiveTrainer() {}

  public static void main(String[] args) {
    System.exit(args.length == 1 && train(Path.of(args[0]), System.getenv()) ? 0 : 1);
  }

  static boolean train(Path jar, Map<String, String> env) {
    Optional<SelfMadeArchive> found = SelfMadeArchive.of(jar, env);
    if (found.isEmpty()) {
      return false;
    }
    SelfMadeArchive archive = found.get();
    Path file = archive.file();
    Path lockFile = file.resolveSibling(file.getFileName() + ".lock");
    try (FileChannel lockChannel =
            FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = lockChannel.tryLock()) {
      if (lock == null) {
        return false; // another first start is making it right now
      }
      if (archive.ready()) {
        return true;
      }
      Path temporary = file.resolveSibling(file.getFileName() + "." + UUID.randomUUID() + ".tmp");
      try {
        if (!run(trainingCommand(archive, temporary), env, file)
            || !SelfMadeArchive.isPlainFile(temporary)) {
          return false;
        }
        ownerReadOnly(temporary);
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE);
        archive.removeOthersUnused();
        return archive.ready();
      } finally {
        Files.deleteIfExists(temporary);
        Files.deleteIfExists(temporary.resolveSibling(temporary.getFileName() + ".config"));
      }
    } catch (IOException | RuntimeException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static List<String> trainingCommand(SelfMadeArchive archive, Path temporary) {
    List<String> command = new ArrayList<>();
    command.add(SelfMadeArchive.javaLauncher());
    command.addAll(LaunchOptions.fast());
    command.add(archive.kind().make(temporary));
    command.add("-D" + SelfMadeArchive.TRAINING + "=true");
    command.add("-jar");
    command.add(archive.jar().toString());
    return command;
  }

  private static boolean run(List<String> command, Map<String, String> env, Path file)
      throws IOException, InterruptedException {
    ProcessBuilder pb = new ProcessBuilder(command);
    // Only what the training needs: never the user's key. The discard port refuses the one call at
    // once, offline, and the error path it takes is worth having in the archive too.
    pb.environment().clear();
    pb.environment().put("PATH", env.getOrDefault("PATH", ""));
    pb.environment().put("CINCH_API_KEY", "training-key");
    pb.environment().put("CINCH_BASE_URL", "http://127.0.0.1:9");
    pb.environment().put("CINCH_TIMEOUT_MS", "2000");
    pb.environment().put("CINCH_BACKEND", "cinch");
    pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.redirectError(file.resolveSibling(file.getFileName() + ".log").toFile());
    Process training = pb.start();
    training.getOutputStream().close();
    if (!training.waitFor(TRAINING_LIMIT_SECONDS, TimeUnit.SECONDS)) {
      training.destroyForcibly();
      return false;
    }
    return training.exitValue() == 0;
  }

  private static void ownerReadOnly(Path file) throws IOException {
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("r--------"));
    } catch (UnsupportedOperationException notPosix) {
      file.toFile().setReadOnly();
    }
  }
}

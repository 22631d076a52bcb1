package dev.cinchmcp;

import dev.cinchmcp.cli.Cli;
import dev.cinchmcp.launch.FastStart;
import dev.cinchmcp.launch.TrainingApi;
import dev.cinchmcp.transport.FirstLineHandOver;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.util.Locale;
import java.util.Map;

/**
 * Entry point: connects {@link Cli} to the process. As every thread's last handler, it ends the
 * process at an OutOfMemoryError with status {@link #OUT_OF_MEMORY}: a server that lost a thread to
 * it would answer only part of what it owes, and could even exit 0.
 */
public final class Main implements Thread.UncaughtExceptionHandler {

  /** The exit status after an OutOfMemoryError, as the JVM's -XX:+ExitOnOutOfMemoryError. */
  static final int OUT_OF_MEMORY = 3;

  private Main() {}

  public static void main(String[] args) {
    numbersInAscii();
    commonPoolOfTwoAtLeast();
    // A class, not a lambda: this runs first at every start, and a first lambda costs tens of ms.
    Thread.setDefaultUncaughtExceptionHandler(new Main());
    boolean training = Boolean.getBoolean(TrainingApi.TRAINING); // never relaunched
    Map<String, String> env = training ? TrainingApi.environment(System.getenv()) : System.getenv();
    FirstLineHandOver firstLine = FastStart.relaunchOrServeHere(args, env);
    // The real stdout is the Cli's alone (JSON-RPC, or --help's text...); anything else that prints
    // goes to stderr. A training run answers into nothing.
    InputStream stdin = training ? TrainingApi.session() : stdin();
    OutputStream stdout =
        training
            ? OutputStream.nullOutputStream()
            : new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 64 * 1024);
    System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));
    try {
      System.exit(new Cli().run(args, stdin, stdout, System.err, env, firstLine));
    } catch (OutOfMemoryError e) {
      throw outOfMemory(e);
    }
  }

  /**
   * Stdin through a channel on Unix: closing it (a stop on a signal) ends a read under way, where a
   * FileInputStream's close does not, and a thread blocked in that read holds the JVM's exit up by
   * some 300 ms. Windows has no such signals.
   */
  private static InputStream stdin() {
    FileInputStream in = new FileInputStream(FileDescriptor.in);
    boolean windows = System.getProperty("os.name", "").startsWith("Windows");
    return windows ? in : Channels.newInputStream(in.getChannel());
  }

  /**
   * Every number this server formats (the tool's description, its error messages, its log) is read
   * by a model or a client, whatever the user's locale. A JVM under an Arabic locale (macOS passes
   * the system's on) wrote "١٠ seconds, ٢٥٦ MB", and a German one would write "4.194.304 bytes".
   * Only numbers and dates change; the messages' language does not.
   */
  static void numbersInAscii() {
    Locale.setDefault(Locale.Category.FORMAT, Locale.ROOT);
  }

  /**
   * On one or two CPUs the common pool gets a parallelism of 1, and Java 17's CompletableFuture
   * then runs every asynchronous step on a new thread. Two pool threads instead: a call's round
   * trip on Java 17, two CPUs, about a quarter shorter. A value the user set is kept.
   */
  static void commonPoolOfTwoAtLeast() {
    String parallelism = "java.util.concurrent.ForkJoinPool.common.parallelism";
    if (System.getProperty(parallelism) == null
        && Runtime.getRuntime().availableProcessors() <= 2) {
      System.setProperty(parallelism, "2");
    }
  }

  @Override
  public void uncaughtException(Thread thread, Throwable e) {
    if (e instanceof OutOfMemoryError oom) {
      outOfMemory(oom);
    }
    System.err.print("Exception in thread \"" + thread.getName() + "\" "); // as the JVM's own
    e.printStackTrace(System.err);
  }

  static Error outOfMemory(OutOfMemoryError e) {
    // Preallocated text, no formatting: there may be no memory left to build a message.
    System.err.println("cinch-mcp: out of memory; the server stops (exit status 3).");
    System.err.flush();
    Runtime.getRuntime().halt(OUT_OF_MEMORY);
    return e;
  }
}

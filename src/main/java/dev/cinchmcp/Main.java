package dev.cinchmcp;

import dev.cinchmcp.config.Settings;
import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;

/** Entry point: {@code java -jar cinch-mcp.jar} serves MCP on stdin/stdout. */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    // The real stdout belongs to JSON-RPC alone. Anything else that prints (a library, a stray
    // println) goes to stderr instead, where it cannot corrupt the protocol.
    OutputStream stdout = new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 64 * 1024);
    System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true));

    Settings settings = Settings.fromEnvironment(System.getenv());
    new CinchMcpServer(settings).serve(new FileInputStream(FileDescriptor.in), stdout);
    System.exit(0);
  }
}

package dev.cinchmcp.cli;

/** The process's exit codes, as {@code --help} lists them. */
final class ExitCode {

  static final int OK = 0;

  /** {@code --check} found that a call would not work. */
  static final int CHECK_FAILED = 1;

  /**
   * A command line this program does not understand; 2 as most Unix tools use, to tell it apart.
   */
  static final int USAGE = 2;

  private ExitCode() {}
}

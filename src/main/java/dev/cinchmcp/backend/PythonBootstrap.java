package dev.cinchmcp.backend;

/**
 * The few lines that start a Python program in the sandbox, passed with {@code python3 -c}: by the
 * local backend for every Python run, and by the input launcher ({@link InputLauncher}) for the
 * program it starts, on either backend.
 *
 * <p>Why not simply {@code python3 -u main.py}? Output must survive a time-out kill, so it cannot
 * wait in a block buffer; but {@code -u} writes straight to the raw file, and under gVisor a large
 * write to a pipe can be partial, which an unbuffered text stream silently drops (measured: 50
 * writes of 100,000 chars arrived as 50 × 65,536). Line buffering keeps output flowing while the
 * buffered layer retries partial writes.
 *
 * <p>The program runs as {@code __main__} with {@code __file__} and {@code sys.argv[0]} set to its
 * file, and the bootstrap's own frame is dropped from tracebacks, so errors read as if the file had
 * been run directly. Source is compiled from bytes, so a coding cookie or BOM is honoured.
 */
public final class PythonBootstrap {

  private static final String ONE_ARENA_PRELUDE =
      "import ctypes\nctypes.CDLL(None).mallopt(-8, 1)\ndel ctypes\n";

  /**
   * Where the local backend puts matplotlib's font list (see {@code MatplotlibFontCache}): when it
   * is there, the bootstrap copies it into matplotlib's cache folder as the program first imports
   * matplotlib, and only then, so that the import does not scan every font again.
   */
  public static final String FONT_CACHE_DIR = "/cinchmcp-matplotlib";

  /**
   * Copies matplotlib's font list into its cache folder when the program first imports matplotlib
   * (needs {@code sys} and {@code os} imported; leaves no name behind).
   */
  public static final String FONT_LIST =
      String.join(
          "\n",
          "if os.path.isdir('" + FONT_CACHE_DIR + "'):",
          "    class _FontList:",
          "        def find_spec(self, name, path=None, target=None):",
          "            if name == 'matplotlib':",
          "                sys.meta_path.remove(self)",
          "                try:",
          "                    d = os.environ.get('MPLCONFIGDIR') or os.path.join(",
          "                        os.path.expanduser('~'), '.cache', 'matplotlib')",
          "                    os.makedirs(d, exist_ok=True)",
          "                    for f in os.listdir('" + FONT_CACHE_DIR + "'):",
          "                        if not os.path.exists(os.path.join(d, f)):",
          "                            with open(os.path.join('"
              + FONT_CACHE_DIR
              + "', f), 'rb') as a:",
          "                                with open(os.path.join(d, f), 'wb') as b:",
          "                                    b.write(a.read())",
          "                except OSError:",
          "                    pass",
          "    sys.meta_path.insert(0, _FontList())",
          "    del _FontList",
          "");

  public static final String SOURCE = source("");

  /**
   * For runs held by RLIMIT_AS (no host cgroup): glibc reserves 64 MB of address space per thread
   * arena, so under 256 MB a program could start only ~5 threads (measured); one arena for all
   * threads (M_ARENA_MAX = 1) leaves room for a thread pool.
   */
  public static final String ONE_ARENA_SOURCE = source(ONE_ARENA_PRELUDE);

  /**
   * The bootstrap with {@code beforeProgram} run first, after the one-arena prelude when asked for:
   * how a sandbox started ahead of time waits for its program (the local backend's warm pool).
   */
  public static String withWait(String beforeProgram, boolean oneArena) {
    return source((oneArena ? ONE_ARENA_PRELUDE : "") + beforeProgram);
  }

  /** The bootstrap with {@code prelude} run before it (e.g. a path for the figures' backend). */
  public static String withPrelude(String prelude) {
    return source(prelude);
  }

  private static String source(String prelude) {
    return prelude
        + String.join(
            "\n",
            "import sys",
            // os is imported by every Python start (site), so this adds no module
            "import os",
            FONT_LIST,
            "sys.stdout.reconfigure(line_buffering=True)",
            "sys.stderr.reconfigure(line_buffering=True)",
            "def _hook(t, v, tb, _orig=sys.excepthook):",
            "    if tb is not None and tb.tb_frame.f_code.co_filename == '<string>':",
            "        tb = tb.tb_next",
            "        v = v.with_traceback(tb)", // the default hook prints v.__traceback__, not tb
            "    _orig(t, v, tb)",
            "sys.excepthook = _hook",
            "sys.argv = sys.argv[1:]",
            "_path = sys.argv[0]",
            "with open(_path, 'rb') as _f:",
            "    _code = compile(_f.read(), _path, 'exec')",
            "del _hook, _f",
            "exec(_code, {'__name__': '__main__', '__file__': _path, '__builtins__': __builtins__})",
            "");
  }

  private PythonBootstrap() {}
}

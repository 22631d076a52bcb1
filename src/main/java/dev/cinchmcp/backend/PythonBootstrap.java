package dev.cinchmcp.backend;

/**
 * What starts a Python program ({@code python3 -c}). Not {@code -u}: under gVisor a large pipe
 * write can be partial, which an unbuffered stream drops (50 writes of 100,000 chars arrived as 50
 * × 65,536); line buffering keeps output flowing. Source is compiled from bytes (a coding cookie).
 */
public final class PythonBootstrap {

  private static final String ONE_ARENA_PRELUDE =
      "import ctypes\nctypes.CDLL(None).mallopt(-8, 1)\ndel ctypes\n";

  /** matplotlib's font list from the local backend, copied at the first import of matplotlib. */
  public static final String FONT_CACHE_DIR = "/cinchmcp-matplotlib";

  /** Needs {@code sys} and {@code os} imported; leaves no name behind. */
  public static final String FONT_LIST =
      """
      if os.path.isdir('@DIR@'):
          class _FontList:
              def find_spec(self, name, path=None, target=None):
                  if name == 'matplotlib':
                      sys.meta_path.remove(self)
                      try:
                          d = os.environ.get('MPLCONFIGDIR') or os.path.join(
                              os.path.expanduser('~'), '.cache', 'matplotlib')
                          os.makedirs(d, exist_ok=True)
                          for f in os.listdir('@DIR@'):
                              if not os.path.exists(os.path.join(d, f)):
                                  with open(os.path.join('@DIR@', f), 'rb') as a:
                                      with open(os.path.join(d, f), 'wb') as b:
                                          b.write(a.read())
                      except OSError:
                          pass
          sys.meta_path.insert(0, _FontList())
          del _FontList
      """
          .replace("@DIR@", FONT_CACHE_DIR);

  public static final String SOURCE = source("");

  /**
   * Under RLIMIT_AS (no host cgroup): glibc reserves 64 MB per thread arena, so under 256 MB only
   * ~5 threads start (measured); M_ARENA_MAX = 1 leaves room for a thread pool.
   */
  public static final String ONE_ARENA_SOURCE = source(ONE_ARENA_PRELUDE);

  /** With {@code beforeProgram} run first: how a sandbox started ahead waits for its program. */
  public static String withWait(String beforeProgram, boolean oneArena) {
    return source((oneArena ? ONE_ARENA_PRELUDE : "") + beforeProgram);
  }

  // os is imported by every Python start (site), so it adds no module; the default hook prints
  // v.__traceback__, not tb.
  private static String source(String prelude) {
    return prelude
        + "import sys\nimport os\n"
        + FONT_LIST
        + """

        sys.stdout.reconfigure(line_buffering=True)
        sys.stderr.reconfigure(line_buffering=True)
        def _hook(t, v, tb, _orig=sys.excepthook):
            if tb is not None and tb.tb_frame.f_code.co_filename == '<string>':
                tb = tb.tb_next
                v = v.with_traceback(tb)
            _orig(t, v, tb)
        sys.excepthook = _hook
        sys.argv = sys.argv[1:]
        _path = sys.argv[0]
        with open(_path, 'rb') as _f:
            _code = compile(_f.read(), _path, 'exec')
        del _hook, _f
        exec(_code, {'__name__': '__main__', '__file__': _path, '__builtins__': __builtins__})
        """;
  }

  private PythonBootstrap() {}
}

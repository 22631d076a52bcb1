package dev.cinchmcp.testkit;

/**
 * The hostile programs both containment suites run (the local gVisor sandbox's and the docker
 * backend's), so that each backend is held to the same attacks.
 */
public final class ContainmentPrograms {

  private ContainmentPrograms() {}

  /** Python: forks until refused, for ever. */
  public static final String FORK_BOMB =
      "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass";

  /**
   * Python: starts up to 1000 small processes, then says how many it got ("forked N"). Spawned, not
   * forked: a forked Python dirties its pages (~4 MB each under gVisor, so 63 of them would meet
   * the memory limit first), and on slower machines 63 forks took more than the 10 s limit (a spawn
   * of {@code sleep}: ~6 s for 63 at half a CPU).
   */
  public static final String FORK_COUNTER =
      """
      import os
      n = 0
      while n < 1000:
          try:
              os.posix_spawn('/bin/sleep', ['sleep', '20'], {})
              n += 1
          except OSError as e:
              print('fork refused after', n, e.strerror, flush=True)
              os._exit(0)
      print('forked', n)
      """;

  /** Python: 150 MB fits, 400 MB more must not ("150 MB ok", never "400 MB too"). */
  public static final String PYTHON_MEMORY_BOMB =
      "b = bytearray(150 * 2**20)\nprint('150 MB ok', flush=True)\n"
          + "c = bytearray(400 * 2**20)\nprint('400 MB too')";

  /**
   * JavaScript: the same with Buffers, the 400 MB kept 300 ms before the print: where Node's limit
   * is a watchdog that looks every 10 ms (no host cgroups), allocating, printing and exiting within
   * one look can get through, keeping the memory cannot.
   */
  public static final String NODE_BUFFER_BOMB =
      "const a = Buffer.alloc(150 * 2**20, 1); console.log('150 MB ok');\n"
          + "const b = Buffer.alloc(400 * 2**20, 1);\n"
          + "const end = Date.now() + 300; while (Date.now() < end) {}\n"
          + "console.log('400 MB too')";

  /** JavaScript: grows its heap without end. */
  public static final String NODE_HEAP_BOMB =
      "const a = []; for (let i = 0; ; i++) a.push(new Array(100000).fill(i));";

  /** Python: about 5 MB of stdout, emoji first, then "end". */
  public static final String FLOOD =
      "import sys\nsys.stdout.write('a' + '\\U0001F600' * 15000)\nfor i in range(50):\n"
          + "    sys.stdout.write('x' * 100000)\nprint('end')";

  /** Python: writes /tmp full (up to 200 MB); prints why it was refused, then the bytes written. */
  public static final String TMP_FILLER =
      """
      n = 0
      try:
          with open('/tmp/fill', 'wb') as f:
              while n < 200 * 2**20:
                  f.write(b'x' * 2**20)
                  f.flush()
                  n += 2**20
      except OSError as e:
          print('refused', e.strerror)
      print(n)
      """;

  /**
   * Python: lists or reads each path, printing "PATH LISTED|READ ..." or "PATH DENIED Error", then
   * "ROOT [...]", the names at /.
   */
  public static String readEach(String... paths) {
    return """
        import os
        for path in [%s]:
            try:
                if os.path.isdir(path):
                    print(path, 'LISTED', os.listdir(path))
                else:
                    print(path, 'READ', open(path).read())
            except OSError as e:
                print(path, 'DENIED', type(e).__name__)
        print('ROOT', sorted(os.listdir('/')))
        """
        .formatted(quoted(paths));
  }

  /** Python: writes each path, printing "PATH WRITTEN" or "PATH REFUSED". */
  public static String writeEach(String... paths) {
    return """
        for path in [%s]:
            try:
                open(path, 'w').write('x')
                print(path, 'WRITTEN')
            except OSError as e:
                print(path, 'REFUSED')
        """
        .formatted(quoted(paths));
  }

  private static String quoted(String... paths) {
    StringBuilder list = new StringBuilder();
    for (String path : paths) {
      list.append(list.length() == 0 ? "" : ", ").append('\'').append(path).append('\'');
    }
    return list.toString();
  }
}

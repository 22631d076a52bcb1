# cinch-mcp's input launcher. It writes the program and its files, runs the program as a child
# process with the given stdin and arguments (its output goes straight to this process's stdout and
# stderr), and ends with the program's exit status. A failure of its own is one stderr line that
# starts with the marker below, so the server tells it apart from anything the program prints.
# When asked ("out"), it then hands back the files the program wrote and the figures it showed, in a
# frame at the end of stdout that the server takes out (the server's OutFrame describes it).
import base64, json, os, signal, sys

PICTURE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")

MARKER = "@MARKER@"


def fail(what, error):
    detail = error.strerror if isinstance(error, OSError) and error.strerror else repr(error)
    sys.stderr.write(MARKER + " " + what + ": " + detail + "\n")
    sys.stderr.flush()
    sys.exit(1)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(text.encode("utf-8", "surrogatepass"))


def main():
    try:
        given = json.loads(base64.b64decode("@PAYLOAD@"))
    except Exception as e:
        fail("could not read its input", e)
    program, work = given["program"], given["workDir"]
    where = program
    try:
        write(program, given["code"])
        os.makedirs(work, exist_ok=True)
        for name, text in given["files"]:
            where = name
            write(os.path.join(work, name), text)
    except Exception as e:
        fail("could not write " + where, e)
    out = given.get("out")
    before = {}
    env = os.environ
    if out:
        try:
            write(os.path.join(out["lib"], "cinchmcp_figures.py"), out["figures"])
            before = scan(out)
        except Exception as e:
            fail("could not prepare the pictures' return", e)
        env = dict(os.environ, MPLBACKEND="module://cinchmcp_figures")
    stdin = (given["stdin"] or "").encode("utf-8", "surrogatepass")
    isolated = ["-I"] if sys.flags.isolated else []
    # The child starts as the local backend starts every Python program (the server's
    # PythonBootstrap): line-buffered output that survives a time-out kill, the program as __main__
    # from its own file, and no frame of the bootstrap in its tracebacks.
    argv = [sys.executable] + isolated + ["-c", given["boot"], program] + given["args"]
    preloaded = any(name in sys.modules for name in given.get("preloadable", ()))
    del given
    if preloaded:
        # A sandbox that imported heavy modules ahead (the local backend's data sandbox): the
        # program runs in a fork of this process, which has them; a new interpreter would import
        # them again, seconds at half a CPU.
        read_end, write_end = os.pipe()
        child = os.fork()
        if child == 0:
            stdin = None
            os.close(write_end)
            become(argv, env, read_end, work, out)
            return  # not reached: become ends the process with the program's status
        os.close(read_end)
    else:
        # posix_spawn, not subprocess: measured ~50 ms less per run under gVisor (no fork of this
        # process, no import of subprocess and threading).
        try:
            read_end, write_end = os.pipe()
            os.chdir(work)
            child = os.posix_spawn(
                sys.executable,
                argv,
                env,
                setsigdef=(signal.SIGPIPE, signal.SIGXFSZ),  # Python ignores them; the child starts clean
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, read_end, 0),
                    (os.POSIX_SPAWN_CLOSE, read_end),
                    (os.POSIX_SPAWN_CLOSE, write_end),
                ],
            )
            os.close(read_end)
        except Exception as e:
            fail("could not start the program", e)
    try:
        with open(write_end, "wb") as pipe:
            pipe.write(stdin)
    except BrokenPipeError:
        pass  # the program ended, or closed its stdin, without reading it all: its choice
    status = os.waitstatus_to_exitcode(os.waitpid(child, 0)[1])
    if out:
        hand_back(out, before)
    if status < 0:  # killed by a signal: end the same way, so the sandbox reports what it saw
        try:
            signal.signal(-status, signal.SIG_DFL)  # SIGKILL's cannot be changed, nor need be
        except (OSError, ValueError):
            pass
        os.kill(os.getpid(), -status)
        status = 128 - status
    if preloaded:
        quick_exit(status)  # nothing of its own to free, and a heavy process to free it in
    sys.exit(status)


def become(argv, env, read_end, work, out):
    """In the forked child: becomes the program, as the spawned interpreter would start it (the
    bootstrap argv[-c] runs it as __main__ from its file), with this process's imports kept. It
    never returns: the program's end, exit or uncaught exception ends the process as Python's exit
    would (threads awaited, atexit handlers run: the figures' backend keeps open figures there)."""
    os.dup2(read_end, 0)
    os.close(read_end)
    os.chdir(work)
    if out:
        os.environ["MPLBACKEND"] = env["MPLBACKEND"]
        if "matplotlib" in sys.modules:
            # imported ahead, before this run's MPLBACKEND was known; pyplot takes it at first use
            sys.modules["matplotlib"].rcParams["backend"] = env["MPLBACKEND"]
    boot = argv.index("-c") + 1
    sys.argv = ["-c"] + argv[boot + 1 :]
    program = argv[boot + 1]
    hook = sys.excepthook

    def from_program(kind, value, tb):
        # The launcher's frames are not the program's: its traceback starts at its own file.
        while tb is not None and tb.tb_frame.f_code.co_filename != program:
            tb = tb.tb_next
        hook(kind, value.with_traceback(tb), tb)  # the default hook prints __traceback__

    sys.excepthook = from_program
    code = compile(argv[boot], "<string>", "exec")
    try:
        exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
        status = 0
    except SystemExit as e:
        status = exit_status(e.code)
    except BaseException:
        sys.excepthook(*sys.exc_info())
        status = 1
    # What Python does at exit, without freeing every module one by one: with numpy, pandas and
    # matplotlib loaded that took ~0.3 s at half a CPU, and freeing helps no one in a process that
    # ends.
    threading = sys.modules.get("threading")
    if threading is not None:
        threading._shutdown()  # waits for the program's non-daemon threads, as an exit does
    import atexit

    atexit._run_exitfuncs()
    quick_exit(status)


def exit_status(code):
    """The status of SystemExit(code), as Python's own exit gives it."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    sys.stderr.write(str(code) + "\n")
    return 1


def quick_exit(status):
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    os._exit(status)


def scan(out):
    """Regular files under the writable root, path -> (size, mtime): hidden ones and the launcher's
    own folder left out, symbolic links not followed, at most out["maxSeen"] entries."""
    found, skip, budget = {}, out["skip"], [out["maxSeen"]]

    def walk(folder, depth):
        try:
            entries = list(os.scandir(folder))
        except OSError:
            return
        for entry in entries:
            if budget[0] <= 0:
                return
            budget[0] -= 1
            if entry.name.startswith(".") or entry.path == skip:
                continue
            try:
                if entry.is_file(follow_symlinks=False):
                    st = entry.stat(follow_symlinks=False)
                    found[entry.path] = (st.st_size, st.st_mtime_ns)
                elif entry.is_dir(follow_symlinks=False) and depth < 16:
                    walk(entry.path, depth + 1)
            except OSError:
                pass

    walk(out["root"], 0)
    return found


def hand_back(out, before):
    """Writes the frame: one line per file, in the order they were made; a failure of its own is
    one line too (the program has run: its output and status stay as they are)."""
    try:
        made = [(m, p, size, False) for p, (size, m) in scan(out).items() if before.get(p) != (size, m)]
        figures = out["figuresDir"]
        for name in sorted(os.listdir(figures)) if os.path.isdir(figures) else ():
            st = os.stat(os.path.join(figures, name))
            made.append((st.st_mtime_ns, os.path.join(figures, name), st.st_size, True))
        made.sort()
        lines, pictures, total, texts, more, more_bytes = [], 0, 0, 0, 0, 0
        for _, path, size, figure in made:
            if len(lines) >= out["maxListed"]:
                more, more_bytes = more + 1, more_bytes + size
                continue
            name = "[figure " + path.rsplit("-", 1)[-1].split(".")[0] + "]" if figure else shown(out, path)
            data = "-"
            with open(path, "rb") as f:
                head = f.read(12)
                picture = head.startswith(PICTURE_MAGIC) or (head[:4] == b"RIFF" and head[8:] == b"WEBP")
                kind = "f"
                if picture and size > out["maxFileBytes"]:
                    kind = "P"
                elif picture and (pictures >= out["maxPictures"] or total + size > out["maxTotalBytes"]):
                    kind = "C"
                elif picture:
                    kind = "p"
                elif size <= out["maxTextBytes"] and texts < out["maxTexts"]:
                    kind = "t"
                if kind in "pt":
                    content = head + f.read(max(0, size - len(head)))
                    size = len(content)
                    pictures, total = pictures + (kind == "p"), total + size * (kind == "p")
                    texts += kind == "t"
                    data = base64.b64encode(content).decode("ascii")
            name64 = base64.b64encode(os.fsencode(name)[:1024]).decode("ascii")
            lines.append("%s %d %s %s\n" % (kind, size, name64, data))
        if more:
            lines.append("m %d %d\n" % (more, more_bytes))
    except Exception as e:
        detail = e.strerror if isinstance(e, OSError) and e.strerror else repr(e)
        lines = ["! 0 %s -\n" % base64.b64encode(detail.encode("utf-8", "replace")[:300]).decode("ascii")]
    frame = out["open"] + "\n" + "".join(lines) + out["close"] + " %d\n" % len(lines)
    try:
        sys.stdout.flush()
        with open(1, "wb", closefd=False) as stdout:
            stdout.write(frame.encode("ascii"))
    except OSError:
        pass  # stdout closed: the server sees no frame and says so


def shown(out, path):
    work = out["work"] + "/"
    return path[len(work):] if path.startswith(work) else path


main()

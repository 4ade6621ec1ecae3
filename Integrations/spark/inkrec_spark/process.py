"""One long-lived ``inkrec recognize --batch -`` process, fed JSON lines and read back in order.

inkrec answers every input line with exactly one JSON line, in input order, and reads only a few
lines ahead of its answers; so a writer thread can stream a whole partition into its standard input
while this thread reads the answers, and memory stays bounded by the batch handed in.

If the process dies (killed by the OS for memory, by an operator, or by a bug on one ink), the lines
it has not answered are sent again to a fresh process: every line gets exactly one answer. A process
that dies twice without answering anything in between is then fed one line at a time, so that an ink
which kills it is found exactly and answered with an error instead of failing the job; after
``max_restarts`` deaths in one partition the partition fails (``InkrecDied``) and Spark retries the
task (``spark.task.maxFailures``).
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from collections import deque
from typing import Optional, Sequence

#: Lines sent one at a time after two deaths without progress, before streaming again.
ISOLATION_LINES = 256


class InkrecDied(RuntimeError):
    """The inkrec process died more often than ``max_restarts`` allows in one partition."""


class InkrecProcess:
    """``inkrec recognize --batch -`` with ``args``, restarted when it dies.

    ``answer_all(lines)`` returns one parsed answer (a dict) per line, in order. The process's
    standard error is copied, line by line with a ``inkrec[pid]:`` prefix, to this process's standard
    error (a Spark executor's log).
    """

    def __init__(self, command: Sequence[str], *, max_restarts: int = 8, env: Optional[dict] = None,
                 log=None):
        self.command = list(command)
        self.max_restarts = max_restarts
        self.env = env
        self.log = log or sys.stderr
        self.restarts = 0
        self._proc: Optional[subprocess.Popen] = None
        self._stderr_tail: deque = deque(maxlen=20)

    # -- the process ----------------------------------------------------------------------------------
    def _start(self) -> subprocess.Popen:
        proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=self.env, bufsize=1 << 16)
        for pipe in (proc.stdin, proc.stdout):
            _widen(pipe)
        threading.Thread(target=self._copy_stderr, args=(proc,), daemon=True).start()
        return proc

    def _copy_stderr(self, proc: subprocess.Popen) -> None:
        for raw in proc.stderr:
            line = raw.decode("utf-8", "replace").rstrip("\n")
            self._stderr_tail.append(line)
            print(f"inkrec[{proc.pid}]: {line}", file=self.log, flush=True)

    @property
    def pid(self) -> Optional[int]:
        return self._proc.pid if self._proc else None

    def close(self) -> None:
        """Ends the process: closes its input and waits for it (it has answered everything sent)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- answering ------------------------------------------------------------------------------------
    def answer_all(self, lines: Sequence[str]) -> list[dict]:
        """One answer per line of ``lines`` (each a JSON ink without a line break), in order. If this is
        interrupted (an exception, a task cancelled), the process is ended, so that no answer meant for
        these lines is ever read for the next ones."""
        try:
            return self._answer_all(lines)
        except BaseException:
            proc, self._proc = self._proc, None
            if proc is not None:
                proc.kill()
                proc.wait()
            raise

    def _answer_all(self, lines: Sequence[str]) -> list[dict]:
        answers: list[dict] = []
        isolate = 0          # lines still to send one at a time
        restarted = False    # the running process was started after a death and has not finished
        while len(answers) < len(lines):
            if self._proc is None or self._proc.poll() is not None:
                self._proc = self._start()
            start = len(answers)
            sent = lines[start:start + 1] if isolate else lines[start:]
            got = self._stream(sent)
            answers.extend(got)
            if len(got) == len(sent):
                isolate = max(0, isolate - 1)
                restarted = False
                continue
            # The output ended before every line sent was answered: the process died.
            status = self._reap()
            self.restarts += 1
            print(f"inkrec_spark: the inkrec process died ({status}) with {len(lines) - len(answers)} of "
                  f"{len(lines)} lines unanswered; restart {self.restarts} of at most {self.max_restarts}",
                  file=self.log, flush=True)
            if self.restarts > self.max_restarts:
                raise InkrecDied(f"inkrec died {self.restarts} times in one partition (last: {status}); "
                                 f"its last messages: {' | '.join(self._stderr_tail)}")
            if isolate:
                # Sent alone, this line killed the process: it is answered with an error.
                answers.append({"error": f"the inkrec process died while recognizing this ink ({status})"})
                isolate -= 1
            elif restarted and not got:
                isolate = ISOLATION_LINES  # died twice without an answer between: find the ink
            restarted = True
        return answers

    def _reap(self) -> str:
        proc, self._proc = self._proc, None
        if proc is None:
            return "not started"
        try:
            proc.stdin.close()
        except OSError:
            pass
        code = proc.wait()
        if code < 0:
            try:
                return f"signal {signal.Signals(-code).name}"
            except ValueError:
                return f"signal {-code}"
        return f"exit status {code}"

    def _stream(self, lines: Sequence[str]) -> list[dict]:
        """Sends ``lines`` from a writer thread and reads answers until all came or the output ended."""
        proc = self._proc
        assert proc is not None

        def write():
            # One write of the whole batch: the kernel feeds the pipe as inkrec reads, without this
            # thread (and the GIL) waking for every line.
            try:
                proc.stdin.write(("\n".join(lines) + "\n").encode("utf-8"))
                proc.stdin.flush()
            except (BrokenPipeError, OSError, ValueError):
                pass  # the process died: the reader sees the end of its output

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        got: list[dict] = []
        while len(got) < len(lines):
            raw = proc.stdout.readline()
            if not raw:
                break
            got.append(_parse_answer(raw))
        writer.join()
        return got


def _widen(pipe) -> None:
    """A 1 MiB pipe instead of 64 KiB (Linux): fewer wake-ups of both processes per ink."""
    try:
        import fcntl
        fcntl.fcntl(pipe.fileno(), getattr(fcntl, "F_SETPIPE_SZ", 1031), 1 << 20)
    except (ImportError, OSError):
        pass


def _parse_answer(raw: bytes) -> dict:
    try:
        d = json.loads(raw)
    except ValueError:
        return {"error": f"inkrec wrote a line that is not JSON: {raw[:200]!r}"}
    return d if isinstance(d, dict) else {"error": f"inkrec wrote {type(d).__name__}, not an object"}


def find_inkrec(explicit: Optional[str] = None) -> str:
    """The inkrec executable: ``explicit``; else ``$INKREC_SPARK_BIN``; else ``inkrec/inkrec`` in the
    working directory (where ``spark-submit --archives inkrec-spark.tar.gz#inkrec`` unpacks the archive
    on every executor); else ``inkrec`` on the PATH."""
    for candidate in (explicit, os.environ.get("INKREC_SPARK_BIN"), os.path.join(os.getcwd(), "inkrec", "inkrec")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
        if candidate and candidate is explicit:
            raise FileNotFoundError(f"inkrec executable not found: {explicit}")
    from shutil import which
    found = which("inkrec")
    if found:
        return found
    raise FileNotFoundError("no inkrec executable: pass inkrec=PATH, set INKREC_SPARK_BIN, ship the archive "
                            "with spark-submit --archives inkrec-spark.tar.gz#inkrec, or put inkrec on the PATH")

"""The interleaved-rounds timer every benchmark script shares.

A 2-core VM changes speed from one minute to the next, so a figure is a ratio
of medians from interleaved rounds: each round runs every command once, in a
random order, and the first rounds (warm-up) are not kept. A machine that
slows down mid-run then slows every command alike.

Each run records its wall time and its CPU time: the user and system time of
the process and every child it waited for (getrusage(RUSAGE_CHILDREN) before
and after), which the machine's other work inflates less than the wall time.

Use from a script's embedded Python:

    sys.path.insert(0, os.path.join(REPO, "scripts", "lib"))
    from interleaved import run, rounds, median, load
    kept = rounds({"a": lambda: run(["true"]), "b": lambda: run(["ls"])}, count=30)
    print(median(kept["b"], "cpu") / median(kept["a"], "cpu"))
"""
import random
import resource
import statistics
import subprocess
import time
from typing import Callable, NamedTuple, Optional


class Run(NamedTuple):
    """One finished process: seconds of wall and CPU time, its exit status,
    and its output when captured (text), else None."""
    wall: float
    cpu: float
    status: int
    stdout: Optional[str]
    stderr: Optional[str]


def run(argv, env=None, cwd=None, capture=False) -> Run:
    """Runs `argv` to its end. Its output goes to /dev/null, unless `capture`
    is True (both kept) or "stderr" (stderr kept)."""
    stdout = subprocess.PIPE if capture is True else subprocess.DEVNULL
    stderr = subprocess.PIPE if capture else subprocess.DEVNULL
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    result = subprocess.run(argv, env=env, cwd=cwd, stdout=stdout, stderr=stderr, text=bool(capture))
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu, result.returncode, result.stdout, result.stderr)


def rounds(commands: "dict[str, Callable[[], Run]]", count: int, warmup: int = 10) -> "dict[str, list[Run]]":
    """Calls every command once a round, in random order, `warmup + count`
    times; returns each command's kept runs (the last `count`)."""
    kept = {name: [] for name in commands}
    for round in range(warmup + count):
        order = list(commands.items())
        random.shuffle(order)
        for name, once in order:
            result = once()
            if round >= warmup:
                kept[name].append(result)
    return kept


def median(runs: "list[Run]", kind: str = "wall") -> float:
    """The median of the runs' `wall` or `cpu` seconds."""
    return statistics.median(getattr(one, kind) for one in runs)


def load() -> str:
    """The 1-minute load average, printed beside each figure."""
    with open("/proc/loadavg") as file:
        return file.read().split()[0]

"""Hunt for tests that fail by chance: run the suite again and again beside CPU burners.

A test that passes alone and fails under load turns CI red for nothing, and pytest-xdist
makes such races more frequent.  This runs the unit tests (and, with ``--e2e``, the
browser tests) ``--runs`` times, alternating serial and parallel mode, with ``--burners``
busy processes on the cores the whole time, and writes which tests failed, in which
mode, and the first lines of why, to ``--out`` (Markdown) and beside it as JSON.

Each run seeds the servers' deals with a salt of its own (``UNOKIT_TEST_DEAL_SALT``,
tests/conftest.py): ``make test`` meets the same deals every time, the hunt meets new
ones, and the report's salt reproduces a failure.  It never retries a test: a failure
found here is fixed at its cause (an event waited on instead of a sleep, a readiness
check instead of a deadline).  Every run is bounded by ``--timeout`` (its whole process
group goes at the bound) and the burners stop with it, whatever happens.

    make flake-hunt                      # 10 runs of the unit tests, 2 burners
    make flake-hunt ARGS="--runs 4 --modes parallel --e2e"
    make flake-hunt ARGS="--modes make"  # the whole of make test, 10 times (issue 51)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# what a make that started the hunt hands down to the make the hunt starts
MAKE_VARIABLES = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "MAKE_TERMOUT",
                  "MAKE_TERMERR", "ARGS", "UNIT_ARGS", "E2E_ARGS")  # fmt: skip


def burn(stop_at: float, parent: int) -> None:
    """A busy loop that ends by itself: at the hunt's bound, or soon after the hunt
    itself is gone (killed: its ``finally`` never ran)."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the hunt's own handler is not ours
    x, n = 0, 0
    while time.monotonic() < stop_at:
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        n += 1
        if n % 2_000_000 == 0 and os.getppid() != parent:
            return


def failures(xml_path: Path) -> list[dict[str, str]]:
    """Each failed or erroring test case of a junit file: its id and the start of why."""
    if not xml_path.exists():
        return [{"test": "(no junit report)", "why": "pytest wrote no report: it crashed"}]
    out = []
    for case in ET.parse(xml_path).iter("testcase"):
        for tag in ("failure", "error"):
            el = case.find(tag)
            if el is not None:
                why = (el.get("message") or el.text or "").strip().splitlines()
                out.append(
                    {
                        "test": f"{case.get('classname')}::{case.get('name')}",
                        "kind": tag,
                        "why": " | ".join(why[:3])[:400],
                    }
                )
    return out


def _bounded(
    cmd: list[str], env: dict[str, str], timeout: float, what: str, log: Path | None = None
) -> tuple[int, list[str]]:
    """Run ``cmd`` in its own process group, bounded: at the bound, or if the hunt itself
    stops (Ctrl-C, SIGTERM), the whole group goes (xdist workers, the servers and
    databases the tests started, make's children), not the first process alone.  Its
    whole output goes to ``log`` when given; the lines that say why come back."""
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        out, _ = proc.communicate(timeout=timeout)
        if log is not None:
            log.write_text(out or "")
        lines = (out or "").strip().splitlines()
        why = [ln for ln in lines if ln.startswith(("make", "E ", "FAILED", "ERROR", "error"))]
        return proc.returncode, (why[-6:] if proc.returncode and why else lines[-1:])
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return -1, [f"the {what} run passed its {timeout:.0f} s bound"]
    finally:
        with contextlib.suppress(ProcessLookupError):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)


def one_run(
    n: int, mode: str, e2e: bool, workers: int, timeout: float, folder: Path
) -> dict[str, Any]:
    python = str(ROOT / ".venv" / "bin" / "python")
    result: dict[str, Any] = {"run": n, "mode": mode, "failures": [], "seconds": 0.0}
    env = {**os.environ, "UNOKIT_TEST_DEAL_SALT": f"hunt-{n}-"}  # other deals a run
    if mode == "make":  # the whole of make test, as CI runs it: lint, types, page, both
        # on an empty numba cache, as CI's fresh clone has (the cold-cache test then
        # compiles into the checkout's cache for the numba group, as there)
        for pattern in ("src/**/__pycache__/*.nbi", "src/**/__pycache__/*.nbc"):
            for cached in ROOT.glob(pattern):
                cached.unlink(missing_ok=True)
        xmls = {name: folder / f"run{n:02d}-make-{name}.xml" for name in ("unit", "e2e")}
        for xml in xmls.values():
            xml.unlink(missing_ok=True)  # a run that writes none must not read an old one
        cmd = [
            "make", "--no-print-directory", "test", "ARGS=",
            f"UNIT_ARGS=-p no:cacheprovider --junitxml={xmls['unit']}",
            f"E2E_ARGS=-p no:cacheprovider --junitxml={xmls['e2e']}",
        ]  # fmt: skip
        # a clean make: `make flake-hunt ARGS=...` hands ARGS down through the environment
        # (and MAKEFLAGS), and the suite's pytest then got the hunt's own arguments
        clean = {k: v for k, v in env.items() if k not in MAKE_VARIABLES}
        t0 = time.monotonic()
        rc, tail = _bounded(cmd, clean, timeout, "make test", folder / f"run{n:02d}-make.log")
        result["seconds"] = time.monotonic() - t0
        found = [f for name, xml in xmls.items() if xml.exists() for f in failures(xml)]
        if rc != 0 and not found:  # lint, types, the page's tests, or a crash
            why = f"exit {rc}: {' | '.join(tail)} (run{n:02d}-make.log)"
            found = [{"test": "(make test)", "kind": "exit", "why": why}]
        for f in found:
            f["suite"] = "make"
        result["failures"] = found
        result["make_summary"] = " ".join(tail)
        return result
    suites = [("unit", [])] + ([("e2e", ["tests/e2e"])] if e2e else [])
    for name, paths in suites:
        xml = folder / f"run{n:02d}-{mode}-{name}.xml"
        dist = (
            ["-n", "0"]
            if mode == "serial"
            else [
                "-n",
                str(workers if name == "unit" else 2),
                "--dist",
                *(["loadgroup", "--no-loadscope-reorder"] if name == "unit" else ["loadfile"]),
            ]
        )
        cmd = [
            python,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            *dist,
            f"--junitxml={xml}",
            *paths,
        ]
        xml.unlink(missing_ok=True)  # a run that writes none must not read an old one
        t0 = time.monotonic()
        rc, tail = _bounded(cmd, env, timeout, name)
        result["seconds"] += time.monotonic() - t0
        found = failures(xml)
        if rc != 0 and not found:
            found = [
                {"test": f"({name} run)", "kind": "exit", "why": f"exit {rc}: {' '.join(tail)}"}
            ]
        for f in found:
            f["suite"] = name
        result["failures"] += found
        result[f"{name}_summary"] = " ".join(tail)
    return result


def _stop(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument(
        "--modes",
        default="serial,parallel",
        help="comma list: serial, parallel (the unit tests), make (the whole of make test)",
    )
    ap.add_argument("--burners", type=int, default=2, help="busy processes beside the tests")
    ap.add_argument("--workers", type=int, default=4, help="xdist workers in parallel mode")
    ap.add_argument("--e2e", action="store_true", help="the browser tests too")
    ap.add_argument(
        "--timeout",
        type=float,
        default=None,
        help="seconds a suite may take (1800; 3600 for a whole make test)",
    )
    ap.add_argument("--out", type=Path, default=ROOT / "flake-hunt" / "report.md")
    a = ap.parse_args(argv)
    modes = [m.strip() for m in a.modes.split(",") if m.strip()]
    if a.timeout is None:  # a whole make test beside two burners: about 20 minutes
        a.timeout = 3600.0 if "make" in modes else 1800.0
    a.commit = commit()  # what the hunt runs, read once: the checkout may move meanwhile
    if not modes or any(m not in ("serial", "parallel", "make") for m in modes) or a.runs < 1:
        print(
            "flake-hunt: --modes takes serial, parallel and/or make, --runs at least 1",
            file=sys.stderr,
        )
        return 2
    folder = a.out.parent
    folder.mkdir(parents=True, exist_ok=True)
    stop_at = time.monotonic() + a.runs * a.timeout * (2 if a.e2e else 1) + 60
    # a SIGTERM (a `timeout` around the hunt left a run's pytest and its PostgreSQL
    # behind) ends the hunt as Ctrl-C does, through the finally clauses
    signal.signal(signal.SIGTERM, _stop)
    burners = [
        mp.Process(target=burn, args=(stop_at, os.getpid()), daemon=True) for _ in range(a.burners)
    ]
    for b in burners:
        b.start()
    runs: list[dict[str, Any]] = []
    try:
        for n in range(1, a.runs + 1):
            mode = modes[(n - 1) % len(modes)]
            r = one_run(n, mode, a.e2e, a.workers, a.timeout, folder)
            runs.append(r)
            verdict = "passed" if not r["failures"] else f"{len(r['failures'])} failed"
            print(
                f"flake-hunt: run {n}/{a.runs} ({mode}, {r['seconds']:.0f} s): {verdict}",
                flush=True,
            )
            for f in r["failures"]:
                print(f"    {f['test']} (salt hunt-{n}-): {f['why'][:200]}", flush=True)
            write(a, runs)
    except KeyboardInterrupt:
        print("flake-hunt: interrupted", file=sys.stderr)
    finally:
        for b in burners:
            b.terminate()
            b.join(5)
    write(a, runs)
    bad = sum(1 for r in runs if r["failures"])
    print(f"flake-hunt: {len(runs) - bad} of {len(runs)} runs passed; report in {a.out}")
    return 1 if bad else 0


def commit() -> str:
    """The commit the hunt ran, and whether the tree had changes beside it."""
    try:

        def git(*args: str) -> str:
            done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
            done.check_returncode()
            return done.stdout.strip()

        head = git("rev-parse", "--short", "HEAD")
        dirty = git("status", "--porcelain", "--untracked-files=no")
    except (OSError, subprocess.CalledProcessError):
        return "(not a git checkout)"
    return head + (" with uncommitted changes" if dirty.strip() else "")


def write(a: argparse.Namespace, runs: list[dict[str, Any]]) -> None:
    a.out.with_suffix(".json").write_text(json.dumps(runs, indent=1))
    lines = [
        "# Flake hunt",
        "",
        f"At {a.commit}.",
        "",
        f"{len(runs)} runs, {a.burners} CPU burners beside them on {os.cpu_count()} cores, "
        f"xdist workers in parallel mode: {a.workers}; browser tests: "
        f"{'yes' if a.e2e or 'make' in a.modes else 'no'}.",
        "",
        "| run | mode | seconds | result |",
        "|---|---|---|---|",
    ]
    for r in runs:
        res = "passed" if not r["failures"] else "; ".join(f["test"] for f in r["failures"])
        lines.append(f"| {r['run']} | {r['mode']} | {r['seconds']:.0f} | {res} |")
    failed = [f | {"run": r["run"], "mode": r["mode"]} for r in runs for f in r["failures"]]
    if failed:
        lines += ["", "## Why", ""]
        lines += [f"- run {f['run']} ({f['mode']}) `{f['test']}`: {f['why']}" for f in failed]
    a.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())

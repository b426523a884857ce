"""The command line's last tracebacks and loose ends (issue 33, items 14-21).

Each test fails on the code before the fix: a traceback, a wrong exit status, a file
mode, a missing line of documentation, a Makefile that runs the browser tests without
a browser.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

import unokit
from unokit import tournament
from unokit.cli import build_parser, main
from unokit.files import write_text_atomic
from unokit.rules import RulesError, from_preset
from unokit.sim import runner
from unokit.sim.config import SimConfig
from unokit.workers import PAUSE_ENV

ROOT = Path(__file__).resolve().parent.parent
SRC = str(Path(unokit.__file__).parent.parent)
ENV = {**os.environ, "PYTHONPATH": SRC}
UNWRITABLE = "/proc/unokit-cannot-write-here.json"  # even root cannot create files in /proc
on_linux = pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")


def one_line_error(capsys: pytest.CaptureFixture[str], command: str) -> str:
    err = capsys.readouterr().err
    assert err.startswith(f"unokit {command}: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    return err


def unokit_cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "unokit", *args]


# ------------------------------------------------------------- 14: replay nesting ----
def test_replay_of_deeply_nested_json_is_exit_2_with_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    doc = json.loads(out)
    assert doc["ok"] is False and "nested too deeply" in doc["error"]["message"]
    assert err.startswith("unokit replay: ") and err.count("\n") == 1


def test_replay_of_an_action_nested_too_deeply_to_print(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep: Any = 0
    for _ in range(sys.getrecursionlimit() - 100):  # parses, but str() of it recurses
        deep = [deep]
    rec = {
        "format": "uno-record/1",
        "rules": {"preset": "classic"},
        "players": ["a", "b"],
        "rounds": [{"dealer": 0, "seed": 1, "actions": [{"seat": 0, "foo": deep}]}],
    }
    path = tmp_path / "r.json"
    path.write_text(json.dumps(rec))
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out)["ok"] is False
    assert err.startswith("unokit replay: ") and err.count("\n") == 1


# ------------------------------------------------- 15: unwritable output paths -------
@on_linux
def test_demo_record_to_an_unwritable_folder_is_refused_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["demo", "--record", UNWRITABLE]) == 2
    assert "cannot write a file there" in one_line_error(capsys, "demo")


@on_linux
def test_tournament_json_to_an_unwritable_folder_is_refused_before_playing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_play(*a: Any, **k: Any) -> Any:
        raise AssertionError("the tournament must not start")

    monkeypatch.setattr(tournament, "run", no_play)
    argv = ["tournament", "--bots", "random", "--games", "2", "--workers", "1"]
    assert main([*argv, "--json", UNWRITABLE]) == 2
    out = capsys.readouterr()
    assert out.out == ""  # no table printed before the refusal
    assert out.err.startswith("unokit tournament: --json ") and "Traceback" not in out.err


def test_a_write_that_fails_late_is_one_line_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import unokit.cli

    def full_disk(path: Any, text: str, **k: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(unokit.cli, "write_text_atomic", full_disk)
    assert main(["demo", "--record", str(tmp_path / "d.json")]) == 2
    assert "No space left on device" in one_line_error(capsys, "demo")
    argv = ["tournament", "--bots", "random", "--games", "2", "--workers", "1"]
    assert main([*argv, "--json", str(tmp_path / "t.json")]) == 2
    assert "No space left on device" in capsys.readouterr().err.splitlines()[-1]


# ------------------------------------------------------------- 16: huge --games ------
@pytest.mark.parametrize("games", ["10000000000000", str(10**23)])
def test_absurd_game_counts_are_refused_at_once(
    games: str, capsys: pytest.CaptureFixture[str]
) -> None:
    t0 = time.perf_counter()
    assert main(["sim", "--games", games, "--workers", "1"]) == 2
    assert "is more than one run plays" in one_line_error(capsys, "sim")
    argv = ["tournament", "--bots", "random", "--games", games, "--workers", "1"]
    assert main(argv) == 2
    assert "is more than a tournament plays" in one_line_error(capsys, "tournament")
    assert time.perf_counter() - t0 < 5


def test_chunks_are_made_as_they_are_handed_out() -> None:
    big = SimConfig(games=runner.MAX_GAMES)
    tasks = runner.chunks(big)
    assert isinstance(tasks, Iterator)  # not a list of 500 million chunks
    first = next(tasks)
    assert (first.start, first.size) == (0, 2000)
    assert runner.chunk_count(big.games) == runner.MAX_GAMES // 2000
    bounds = tournament.chunk_bounds(10**12)
    assert isinstance(bounds, Iterator) and next(bounds) == (0, 500)


# ------------------------------------------------------------- 17: Ctrl-C ------------
# Each test pauses the command at one named moment (unokit.workers.stage), presses
# Ctrl-C there (SIGINT to the whole process group, as a terminal does), then lets it go
# on.  No sleep hopes the command has got somewhere: the command says it has.
GUARD = 120.0  # seconds; only a guard against a hang, each test names what did not happen
SIM = ("sim", "--workers", "2", "--no-progress")
TOURNAMENT = ("tournament", "--bots", "random", "--workers", "2")


def _live_in_group(pgid: int) -> list[str]:
    """The processes of group ``pgid`` that are not zombies: a worker left behind shows."""
    found = []
    for stat_file in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat_file.read_text()
        except OSError:
            continue
        fields = text.rsplit(")", 1)[1].split()  # after "pid (comm)": state ppid pgrp ...
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(text.split(")", 1)[0] + ")")
    return found


# A process started in the background of a script (`make test &`, nohup) inherits SIGINT
# ignored, and Python then leaves it ignored: the command would never see the Ctrl-C
# (found when the 50-run loop ran in the background).  A terminal's job has it at the
# default; so does the command here, which then takes the place of this wrapper.
WITH_CTRL_C = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.executable, [sys.executable, '-m', 'unokit', *sys.argv[1:]])"
)


class Paused:
    """A command started with ``UNOKIT_TEST_PAUSE=STAGE:FOLDER``, in its own group."""

    def __init__(self, args: tuple[str, ...], stage: str, folder: Path, pythonpath: str = SRC):
        self.args, self.stage, self.folder = args, stage, folder
        folder.mkdir()
        env = {**ENV, "PYTHONPATH": pythonpath, PAUSE_ENV: f"{stage}:{folder}"}
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WITH_CTRL_C, *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # its own group, as a terminal's foreground job
        )

    def wait_for_stage(self) -> None:
        deadline = time.monotonic() + GUARD
        while not any(self.folder.glob(f"{self.stage}.*")):
            if self.proc.poll() is not None:
                _, err = self.proc.communicate()
                pytest.fail(f"{self.args[0]} ended ({self.proc.returncode}) before "
                            f"reaching {self.stage}: {err}")  # fmt: skip
            if time.monotonic() > deadline:
                pytest.fail(f"{self.args[0]} did not reach {self.stage} in {GUARD:g} s")
            time.sleep(0.01)

    def ctrl_c(self) -> None:
        os.killpg(self.proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does

    def go_on(self) -> None:
        (self.folder / "go").touch()

    def check_interrupted(self) -> None:
        try:
            _, err = self.proc.communicate(timeout=GUARD)
        except subprocess.TimeoutExpired:
            left = _live_in_group(self.proc.pid)
            pytest.fail(f"{self.args[0]} did not end within {GUARD:g} s of a Ctrl-C at "
                        f"{self.stage}; still running: {left}")  # fmt: skip
        assert self.proc.returncode == 130, (self.stage, err)
        assert err.strip() == "interrupted", (self.stage, err)
        deadline = time.monotonic() + GUARD
        while left := _live_in_group(self.proc.pid):  # a worker may outlive its parent
            if time.monotonic() > deadline:
                pytest.fail(f"after a Ctrl-C at {self.stage}, still running: {left}")
            time.sleep(0.01)

    def kill(self) -> None:
        if _live_in_group(self.proc.pid):
            os.killpg(self.proc.pid, signal.SIGKILL)
        if self.proc.poll() is None:
            self.proc.wait()


@pytest.fixture
def paused(tmp_path: Path) -> Iterator[Callable[..., Paused]]:
    started: list[Paused] = []

    def start(args: tuple[str, ...], stage: str, **kw: str) -> Paused:
        one = Paused(args, stage, tmp_path / f"{args[0]}-{stage}", **kw)
        started.append(one)
        return one

    yield start
    for one in started:
        one.kill()


@on_linux
def test_ctrl_c_with_two_workers_prints_no_worker_tracebacks(
    paused: Callable[..., Paused],
) -> None:
    """Both commands at once, each with its two workers playing their first chunks."""
    runs = [
        paused((*SIM, "--games", "5000000"), "worker-playing"),
        paused((*TOURNAMENT, "--games", "2000000"), "worker-playing"),
    ]
    for run in runs:
        run.wait_for_stage()
    for run in runs:
        run.ctrl_c()
    for run in runs:
        run.go_on()
    for run in runs:
        run.check_interrupted()


STAGES = [
    "parsing",  # the parent imports the sub-commands: before the pool's handler
    "pool-start",  # the parent, SIGINT blocked, about to start the fork server
    "pool-started",  # the workers exist (starting, importing), no job handed out yet
    "handing-out",  # the pool's task thread makes a chunk to hand out
    "waiting",  # the parent waits for a result
    "merging",  # the parent merges a result
    "worker-import",  # a worker imports unokit, before its initializer
    "worker-start",  # a worker's initializer, before it ignores SIGINT
    "worker-playing",  # a worker starts its first chunk
]


@pytest.mark.slow
@on_linux
@pytest.mark.parametrize("command", [SIM, TOURNAMENT], ids=["sim", "tournament"])
@pytest.mark.parametrize("stage", STAGES)
def test_ctrl_c_at_every_stage_ends_the_command_quietly(
    command: tuple[str, ...], stage: str, paused: Callable[..., Paused]
) -> None:
    run = paused((*command, "--games", "2000"), stage)
    run.wait_for_stage()
    run.ctrl_c()
    run.go_on()
    run.check_interrupted()


FORKSERVER_PAUSE = """
import os, sys, time
from pathlib import Path
# Runs at the start of every Python process of the command; pauses the fork server only,
# before its own code ignores SIGINT.
if b"multiprocessing.forkserver" in Path("/proc/self/cmdline").read_bytes():
    where = Path(os.environ["UNOKIT_TEST_PAUSE"].partition(":")[2])
    (where / f"forkserver-start.{os.getpid()}").touch()
    while not (where / "go").exists():
        time.sleep(0.005)
"""


@pytest.mark.slow
@on_linux
@pytest.mark.parametrize("command", [SIM, TOURNAMENT], ids=["sim", "tournament"])
def test_ctrl_c_while_the_fork_server_starts(
    command: tuple[str, ...], tmp_path: Path, paused: Callable[..., Paused]
) -> None:
    """Found by issue 51's hunt: the fork server printed its KeyboardInterrupt traceback."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(FORKSERVER_PAUSE)
    run = paused((*command, "--games", "2000"), "forkserver-start", pythonpath=f"{site}:{SRC}")
    run.wait_for_stage()
    run.ctrl_c()
    run.go_on()
    run.check_interrupted()


# ------------------------------------------------------------- 18: file modes -------
@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_saved_files_respect_the_umask_and_keep_their_mode(tmp_path: Path, umask_022: None) -> None:
    new = tmp_path / "new.json"
    write_text_atomic(new, "{}")
    assert mode(new) == 0o644
    kept = tmp_path / "kept.json"
    kept.write_text("old")
    kept.chmod(0o640)
    write_text_atomic(kept, "new")
    assert kept.read_text() == "new" and mode(kept) == 0o640
    os.umask(0o077)
    private = tmp_path / "private.json"
    write_text_atomic(private, "{}")
    assert mode(private) == 0o600


def test_demo_record_gets_the_umask_mode(
    tmp_path: Path, umask_022: None, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "d.json"
    path.write_text("")
    path.chmod(0o644)
    assert main(["demo", "--record", str(path)]) == 0
    assert mode(path) == 0o644  # was made 0600


def test_plots_are_written_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure

    from unokit.sim import plots

    def half_written(self: Figure, target: Any, **k: Any) -> None:
        if hasattr(target, "write"):
            target.write(b"\x89PNG half")
        else:
            Path(target).write_bytes(b"\x89PNG half")
        raise OSError(28, "No space left on device")

    (tmp_path / "game_length.png").write_bytes(b"the old plot")
    monkeypatch.setattr(Figure, "savefig", half_written)
    summary = {"config": {"mode": "rounds", "label": "classic"}}
    monkeypatch.setattr(plots, "_hist", lambda s, k: _FakeHist())
    with pytest.raises(OSError):
        plots.plot_game_length([summary], tmp_path / "game_length.png")
    assert (tmp_path / "game_length.png").read_bytes() == b"the old plot"
    assert [p.name for p in tmp_path.iterdir()] == ["game_length.png"]  # no temporary


class _FakeHist:
    n = 1
    counts: ClassVar[dict[int, int]] = {10: 1}

    def quantile(self, q: float) -> float:
        return 10.0


# ------------------------------------------------ 19: bad bot options, --check -------
@pytest.mark.parametrize(
    ("bot", "says"),
    [
        ("ismcts:iterations=-5", "iterations must be from 1 to"),
        ("ismcts:iterations=0", "iterations must be from 1 to"),
        ("ismcts:iterations=2.5", "iterations is a whole number"),
        ("ismcts:iterations=99999999999999999999", "iterations must be from 1 to"),
        ("ismcts:time_budget=-1", "time_budget must be more than 0"),
        ("ismcts:time_budget=1e9", "time_budget must be from 0 to 3600"),
        ("ismcts:margin=-1", "margin must be from 0 to"),
        ("ismcts:margin=1e30", "margin must be from 0 to"),
        ("ismcts:policy=7", "policy must be from 0 to 2"),
        ("ismcts:paired=2", "paired is true or false"),
        ("ismcts:exploration=nan", "expected a finite number"),
        ("heuristic:weights=3", "weights cannot be set from the command line"),
    ],
)
def test_tournament_refuses_bad_bot_options_before_playing(
    bot: str, says: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_play(*a: Any, **k: Any) -> Any:
        raise AssertionError("the tournament must not start")

    monkeypatch.setattr(tournament, "run", no_play)
    assert main(["tournament", "--bots", bot, "random", "--games", "2", "--workers", "1"]) == 2
    assert says in one_line_error(capsys, "tournament")


def test_good_bot_options_still_parse() -> None:
    e = tournament.parse_entrant("ismcts:iterations=200,time_budget=1,compiled=false,margin=0")
    assert dict(e.options) == {
        "iterations": 200,
        "time_budget": 1.0,
        "compiled": False,
        "margin": 0.0,
    }


@pytest.mark.parametrize("n", ["0", "-5"])
def test_sim_check_refuses_zero_and_negatives_alike(
    n: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["sim", "--engine", "compiled", "--games", "10", "--workers", "1", "--check", n]
    assert main(argv) == 2
    assert f"N is 1 or more, not {n}" in one_line_error(capsys, "sim")


def test_sim_check_is_documented() -> None:
    sim = " ".join(_sub("sim").format_help().split())
    assert "N from 1 up" in sim and "(default: replay none)" in sim


# ------------------------------------------------------------- 20: small texts -------
def _sub(name: str) -> Any:
    import argparse

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[name]


def test_sim_help_texts() -> None:
    text = " ".join(_sub("sim").format_help().split())
    assert "95% CIs" in text and "%%" not in text
    assert "40 to 180 times faster" in text and "ten times" not in text
    assert "every game (classic, flip, no-mercy)" in text
    assert "95% CIs" in build_parser().format_help()  # the list of commands too


def test_a_deal_too_large_for_two_players_speaks_no_plural_of_one() -> None:
    with pytest.raises(RulesError) as e:
        from_preset("my-first-uno", {"hand_size": 15}).check_players(2)
    assert "1 players" not in str(e.value) and "not even 2 players" in str(e.value)


@pytest.mark.parametrize(
    ("data", "ours", "pythons"),
    [
        (b'\xef\xbb\xbf{"players": []}', "byte-order mark", "utf-8-sig"),
        (b'{"players": ' + b"9" * 5000 + b"}", "more than 4,300 digits", "set_int_max"),
    ],
)
def test_replay_says_it_in_our_words(
    data: bytes, ours: str, pythons: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(data)
    assert main(["replay", str(path)]) == 2
    out, err = capsys.readouterr()
    message = json.loads(out)["error"]["message"]
    assert ours in message and pythons not in message and pythons not in err


@pytest.mark.parametrize(
    "args",
    [
        ("sim", "--games", "200", "--workers", "1"),
        ("rules",),
        ("demo",),
    ],
)
def test_a_closed_stdout_pipe_ends_quietly(args: tuple[str, ...]) -> None:
    p = subprocess.Popen(unokit_cmd(*args), env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()  # `| head -1` that has read its line and gone
    err = p.stderr.read().decode()
    p.wait(timeout=60)
    assert p.returncode == 0, err
    assert "Traceback" not in err and "Exception ignored" not in err


def engine_codes() -> set[str]:
    """Every code an ``IllegalAction`` is raised with in src/unokit/engine."""
    codes: set[str] = set()
    for path in (Path(SRC) / "unokit" / "engine").rglob("*.py"):
        text = path.read_text()
        for m in re.finditer(r"raise IllegalAction\(", text):
            depth, i = 1, m.end()
            while depth:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            found = re.search(r"code=\"(\w+)\"", text[m.end() : i])
            codes.add(found.group(1) if found else "illegal_action")
    return codes


def test_the_rules_error_table_lists_every_code_the_engine_raises() -> None:
    text = (ROOT / "docs" / "rules.md").read_text()
    section = text.split("## Errors a player sees", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `(\w+)` \|", section, flags=re.M))
    codes = engine_codes()
    assert {"one_card", "not_now", "target_required", "must_answer", "not_same_number"} <= codes
    assert codes - listed == set(), f"docs/rules.md lacks {sorted(codes - listed)}"
    assert listed - codes == set(), f"docs/rules.md lists {sorted(listed - codes)}"
    from unokit.errors import CODES

    assert listed <= set(CODES)


# ------------------------------------------------- 21: make e2e without chromium -----
def _stub(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(0o755)


def run_e2e(
    tmp_path: Path, uid: int, sudo: bool, apt: bool
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """``make e2e`` with stand-ins: id, sudo, apt-get and pytest only write to a log."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    log = tmp_path / "log"
    chromium = tmp_path / "chromium"
    _stub(bin_, "id", f"echo {uid}")
    _stub(bin_, "pytest", f'echo "pytest $*" >> {log}')
    if sudo:
        _stub(bin_, "sudo", f'[ "$1" = -n ] && shift; echo "sudo $*" >> {log}; exec "$@"')
    else:
        _stub(bin_, "sudo", "exit 1")  # a sudo that wants a password
    if apt:
        made = f"{{ touch {chromium} && chmod +x {chromium}; }}"
        _stub(bin_, "apt-get", f'echo "apt-get $*" >> {log}; [ "$1" != install ] || {made}')
    else:
        _stub(bin_, "apt-get", "exit 127")
    env = {**os.environ, "PATH": f"{bin_}:{os.environ['PATH']}"}
    env.pop("MAKEFLAGS", None)
    env.pop("ARGS", None)  # a make unit ARGS=... around this test passes it on
    done = subprocess.run(
        # STAMP= and a venv elsewhere: the test never builds or touches .venv
        ["make", "-s", "e2e", "STAMP=", f"BIN={bin_}", f"VENV={tmp_path}/venv", "PYTHON=false",
         f"CHROMIUM={chromium}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    return done, log


needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


@needs_make
def test_make_e2e_without_chromium_and_without_rights_stops_with_one_line(
    tmp_path: Path,
) -> None:
    done, log = run_e2e(tmp_path, uid=1000, sudo=False, apt=True)
    assert done.returncode != 0
    assert not log.exists()  # neither apt-get nor pytest ran
    ours = [line for line in done.stderr.splitlines() if line.startswith("make test: ")]
    assert len(ours) == 1 and "run: sudo apt-get install chromium" in ours[0], done.stderr


@needs_make
@pytest.mark.parametrize(("uid", "sudo"), [(0, False), (1000, True)])
def test_make_e2e_installs_chromium_when_it_may(tmp_path: Path, uid: int, sudo: bool) -> None:
    done, log = run_e2e(tmp_path, uid=uid, sudo=sudo, apt=True)
    assert done.returncode == 0, done.stderr
    lines = log.read_text().splitlines()
    assert any(line.startswith("apt-get install") and "chromium" in line for line in lines)
    assert lines[-1].startswith("pytest") and "tests/e2e" in lines[-1]  # after the install
    assert any(line.startswith("sudo ") for line in lines) == sudo


def test_saving_through_a_symlink_or_to_a_device_keeps_them(tmp_path: Path) -> None:
    """Found by review: the atomic save renamed a regular file over a symbolic link (and,
    as root, over /dev/stdout)."""
    from unokit.files import write_text_atomic

    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_text_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    import threading

    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_text_atomic(fifo, "through the pipe")
    reader.join(5)
    assert got == [b"through the pipe"] and not fifo.is_file()


def test_replay_of_an_endless_file_is_refused_without_reading_it_all() -> None:
    """Found by review: ``replay /dev/zero`` read everything (MemoryError traceback
    under a memory limit); now it reads a bound and says it is no record."""
    proc = subprocess.run(
        [sys.executable, "-m", "unokit.cli", "replay", "/dev/zero"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert json.loads(proc.stdout)["ok"] is False and "MiB" in proc.stderr


def test_make_test_checks_for_chromium_before_any_test_runs() -> None:
    """Item 21: on a machine without Chromium (and no right to install it), ``make test``
    must stop before the lint, type and unit runs, not after them."""
    root = Path(__file__).resolve().parent.parent
    plan = subprocess.run(
        ["make", "-n", "test", "STAMP=", "CHROMIUM=/nonexistent/chromium"],
        cwd=root, capture_output=True, text=True, timeout=60,
    ).stdout  # fmt: skip
    assert "/nonexistent/chromium" in plan
    assert plan.index("/nonexistent/chromium") < plan.index("ruff check")
    assert plan.index("ruff check") < plan.index(" tests/e2e")


def test_a_worker_whose_setup_fails_ends_the_command_with_that_error(tmp_path: Path) -> None:
    """Found by review: a worker set-up that raised (the simulator's loading of the
    compiled engine) killed the worker, the pool started another, and so on for ever:
    the command hung.  The error now reaches the parent through the first job."""
    script = tmp_path / "pool.py"
    script.write_text(
        "from unokit.workers import run_pool\n"
        "def square(x): return x * x\n"
        "def broken(): raise RuntimeError('the cache is unreadable')\n"
        "if __name__ == '__main__':\n"
        "    try:\n"
        "        run_pool(square, range(4), 2, print, broken, ())\n"
        "    except RuntimeError as e:\n"
        "        print('raised:', e)\n"
        "    got = []\n"
        "    run_pool(square, range(4), 2, got.append)\n"
        "    print(sorted(got))\n"
    )
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["raised: the cache is unreadable", "[0, 1, 4, 9]"]

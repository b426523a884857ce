"""The wheel as a user gets it: built, installed into a new virtual environment, used.

Every other test imports unokit from ``src/`` (the editable install of ``.venv``), where
every file of the checkout is at hand whether the wheel ships it or not: a web page,
the learned bot's weights or a module left out of ``[tool.setuptools.package-data]``
would break ``pip install unokit`` and no other test would notice.  Here the wheel is
built from a copy of the checkout (a stale ``build/`` there could otherwise fill the
gaps), installed into a fresh virtual environment under pytest's ``tmp_path``, and
every command runs from a working directory outside the checkout without
``PYTHONPATH``, as a user would run it: once without extras (the commands a plain
install promises, and the ones needing an extra refuse in one line), once with the
``fast`` and ``rl`` extras (the vector environments, compiled by numba into an empty
cache of their own, so that no test passes because another compiled first).

Installing is kept fast without changing what gets installed: the venv is made without
its own pip (``ensurepip`` alone takes about 13 s) and filled by the checkout's pip
(``pip --python``), from pip's warm cache, without byte-compiling (``--no-compile``:
Python writes the same ``.pyc`` files at first import).  The dependencies are resolved
from the wheel's own metadata, so a missing dependency fails here too.  Measured on 2
shared cores: about 1.5 minutes for the plain venv's tests, 4 to 6 for the extras',
nearly all of it numba compiling the two vector environments' kernels on empty caches.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "unokit"

pytestmark = pytest.mark.slow
# Under pytest-xdist's --dist loadgroup, one worker builds and uses each venv (its
# fixtures are per module and per worker), and the two venvs may go to two workers.
PLAIN = pytest.mark.xdist_group("installed_plain")
EXTRAS = pytest.mark.xdist_group("installed_extras")

# What a build never reads: caches, virtual environments, earlier build output (setuptools
# reuses build/lib, so a stale copy would hide a file that package-data leaves out).
NOT_COPIED = shutil.ignore_patterns(
    ".git",
    ".venv",
    ".bench-venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".hypothesis",
    "node_modules",
    "runs",
)
INSTALL_TIMEOUT = 600  # a cold pip cache downloads numpy, matplotlib, numba, ...
RUN_TIMEOUT = 120
# numba on an empty cache: about a minute a kernel on 2 cores; a last resort against a
# hang (600 s was passed once with the machine four times oversubscribed)
COMPILE_TIMEOUT = 1800


@dataclass(frozen=True)
class Venv:
    """A virtual environment with the wheel installed, and where to run commands in it."""

    root: Path
    work: Path  # the working directory of every command: outside the checkout

    @property
    def bin(self) -> Path:
        return self.root / "bin"

    @property
    def python(self) -> Path:
        return self.bin / "python"

    def env(self, numba_cache: Path | None = None) -> dict[str, str]:
        """The user's environment: this venv first on PATH, nothing pointing at src/."""
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
        env["PATH"] = f"{self.bin}{os.pathsep}{env.get('PATH', '')}"
        env["VIRTUAL_ENV"] = str(self.root)
        env["XDG_DATA_HOME"] = str(self.work / "xdg-data")  # serve's default database
        env["NUMBA_CACHE_DIR"] = str(numba_cache or self.work / "numba-cache")
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        return env

    def run(
        self,
        *args: str | Path,
        timeout: float = RUN_TIMEOUT,
        numba_cache: Path | None = None,
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(a) for a in args],
            cwd=self.work,
            env=self.env(numba_cache),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def unokit(
        self, *args: str | Path, timeout: float = RUN_TIMEOUT
    ) -> subprocess.CompletedProcess[str]:
        return self.run(self.bin / "unokit", *args, timeout=timeout)


def shown(p: subprocess.CompletedProcess[str]) -> str:
    """A command's exit status and output, for a failed assertion's message."""
    out, err = p.stdout[-4000:], p.stderr[-4000:]
    return f"exit {p.returncode}\n--- stdout ---\n{out}\n--- stderr ---\n{err}"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built by ``pip wheel`` (setuptools, as pyproject.toml says) from a copy
    of the checkout without build output."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    shutil.copytree(ROOT, source, ignore=NOT_COPIED, symlinks=True)
    dist = base / "dist"
    p = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(dist), str(source)],
        cwd=base,
        capture_output=True,
        text=True,
        timeout=INSTALL_TIMEOUT,
        check=False,
    )
    assert p.returncode == 0, f"pip wheel failed: {shown(p)}"
    (built,) = dist.glob("unokit-*.whl")
    shutil.rmtree(source)
    return built


def make_venv(base: Path, requirement: str) -> Venv:
    """A new venv under ``base`` with ``requirement`` (the wheel, maybe with extras)."""
    root = base / "venv"
    work = base / "work"
    work.mkdir()
    p = subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(root)],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )
    assert p.returncode == 0, f"python -m venv failed: {shown(p)}"
    venv = Venv(root, work)
    pip = [sys.executable, "-m", "pip", "--python", str(venv.python), "install"]
    p = venv.run(*pip, "--no-compile", "--quiet", requirement, timeout=INSTALL_TIMEOUT)
    assert p.returncode == 0, f"pip install {requirement} failed: {shown(p)}"
    # the package comes from the venv, never from the checkout
    where = venv.run(venv.python, "-c", "import unokit; print(unokit.__file__)")
    assert where.returncode == 0, shown(where)
    found = Path(where.stdout.strip()).resolve()
    assert found.is_relative_to(root.resolve()), found
    assert not found.is_relative_to(ROOT), found
    return venv


@pytest.fixture(scope="module")
def plain(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venv]:
    """``pip install unokit``: no extras."""
    base = tmp_path_factory.mktemp("plain")
    yield make_venv(base, str(wheel))
    shutil.rmtree(base, ignore_errors=True)  # about 300 MB


@pytest.fixture(scope="module")
def extras(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Venv]:
    """``pip install 'unokit[fast,rl]'``."""
    base = tmp_path_factory.mktemp("extras")
    yield make_venv(base, f"unokit[fast,rl] @ {wheel.as_uri()}")
    shutil.rmtree(base, ignore_errors=True)  # about 400 MB


# ------------------------------------------------------------------ the wheel's files --
@PLAIN
def test_wheel_holds_every_file_of_the_package(wheel: Path) -> None:
    """Every file under src/unokit (modules, web page, weights, py.typed) is in the
    wheel: the short answer to what the commands below find missing one by one."""
    expected = {
        p.relative_to(PACKAGE.parent).as_posix()
        for p in PACKAGE.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }
    with zipfile.ZipFile(wheel) as z:
        shipped = set(z.namelist())
    assert sorted(expected - shipped) == []


# ------------------------------------------------------------------ without extras --
@PLAIN
def test_version(plain: Venv) -> None:
    from unokit import __version__

    p = plain.unokit("--version")
    assert p.returncode == 0, shown(p)
    assert p.stdout.strip() == f"unokit {__version__}"
    p = plain.run(plain.python, "-m", "unokit", "--version")  # the console script's twin
    assert p.returncode == 0, shown(p)
    assert p.stdout.strip() == f"unokit {__version__}"


@PLAIN
def test_demo_then_replay_its_record(plain: Venv) -> None:
    record = plain.work / "game.json"
    p = plain.unokit("demo", "--players", "3", "--seed", "1", "--record", record)
    assert p.returncode == 0, shown(p)
    assert json.loads(record.read_text())["format"] == "uno-record/1"
    p = plain.unokit("replay", record)
    assert p.returncode == 0, shown(p)
    result = json.loads(p.stdout)
    assert result["ok"] is True, result
    assert result["state"]["round_over"] is True


@PLAIN
def test_tournament_with_the_learned_bot(plain: Venv) -> None:
    """The learned bot's weights (bots/learned.npz) come with the wheel."""
    p = plain.unokit("tournament", "--bots", "learned", "random", "--games", "20", "--workers", "2")
    assert p.returncode == 0, shown(p)
    rows = {line.split()[0] for line in p.stdout.splitlines() if line.strip()}
    assert {"learned", "random"} <= rows, p.stdout


@PLAIN
@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (("sim", "--engine", "compiled", "--games", "10", "--rounds-only"), "fast"),
        (("sim", "--backend", "ray", "--games", "10"), "ray"),
        (("train", "--steps", "1"), "train"),
        (("serve", "--port", "9", "--store", "postgresql://nobody@127.0.0.1:9/none"), "postgres"),
    ],
    ids=["sim-compiled", "sim-ray", "train", "serve-postgres"],
)
def test_a_feature_without_its_extra_says_what_to_install(
    plain: Venv, args: tuple[str, ...], extra: str
) -> None:
    """Exit status 2 and one line on stderr naming the pip install, no traceback."""
    p = plain.unokit(*args)
    assert p.returncode == 2, shown(p)
    assert "Traceback" not in p.stdout + p.stderr, shown(p)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, shown(p)
    assert re.search(rf"pip install 'unokit\[[a-z,]*\b{extra}\b", lines[0]), shown(p)


class _Assets(HTMLParser):
    """The /static/ files a page names in src= and href=."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("src", "href") and value and value.startswith("/static/"):
                self.urls.append(value)


# import x from "./y.js", export {..} from "../y.js", import "./y.js", import("./y.js")
JS_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def get(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            return r.status, r.headers.get("content-type", ""), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("content-type", ""), e.read()


@PLAIN
@pytest.mark.services
def test_serve_answers_the_page_with_its_files_and_healthz(plain: Venv) -> None:
    """``unokit serve`` on 127.0.0.1: /healthz, the page, and every file the page loads
    (followed through the JavaScript modules' imports, so web/render/ and
    web/locales/ are fetched as a browser would)."""
    port = free_port()
    log = plain.work / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [
                str(plain.bin / "unokit"),
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--db",
                str(plain.work / "rooms.sqlite3"),
            ],
            cwd=plain.work,
            env=plain.env(),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, (
                f"unokit serve exited {server.returncode}: {log.read_text()}"
            )
            try:
                status, _, body = get(f"{base}/healthz")
                break
            except OSError:
                assert time.monotonic() < deadline, f"no answer on {base}: {log.read_text()}"
                time.sleep(0.2)
        assert status == 200, body
        assert json.loads(body)["ok"] is True

        status, kind, page = get(f"{base}/")
        assert status == 200 and kind.startswith("text/html"), (status, kind)
        parser = _Assets()
        parser.feed(page.decode())
        assert any(u.endswith(".js") for u in parser.urls), parser.urls
        assert any(u.endswith(".css") for u in parser.urls), parser.urls
        todo, seen = list(parser.urls), set()
        while todo:
            url = todo.pop()
            if url in seen:
                continue
            seen.add(url)
            status, _, body = get(base + url)
            assert status == 200, f"{url}: HTTP {status} (is it in the wheel?)"
            assert body, f"{url} is empty"
            if url.endswith(".js"):
                folder = url.rsplit("/", 1)[0]
                for rel in JS_IMPORT.findall(body.decode()):
                    todo.append(os.path.normpath(f"{folder}/{rel}"))
        # every module of the page, not only the two it names
        assert {"/static/app.js", "/static/render/table.js", "/static/locales/en.js"} <= seen
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)
    assert "Traceback" not in log.read_text(), log.read_text()


# ------------------------------------------------------------------ fast and rl extras --
VECTOR_ENV = """
import numpy as np
from unokit.rl.vector import UnoVectorEnv, sample_actions

rng = np.random.default_rng(1)
env = UnoVectorEnv(num_envs=4, num_players=3)
batch = env.reset(seed=1)
ended = 0
for _ in range(400):
    batch = env.step(sample_actions(batch.mask, rng))
    ended += int(batch.terminated.sum())
assert batch.obs.shape[0] == 4 and batch.mask.any(axis=1).all()
assert ended > 0, "400 random decisions in 4 games and no round ended"
print("ok", ended)
"""

VECTOR_GYM_ENV = """
import numpy as np
from unokit.rl.vector import UnoVectorGymEnv, sample_actions

rng = np.random.default_rng(1)
env = UnoVectorGymEnv(num_envs=4, num_players=2, opponents="random")
obs, info = env.reset(seed=1)
ended = 0
for _ in range(300):
    obs, reward, terminated, truncated, info = env.step(sample_actions(obs["action_mask"], rng))
    ended += int(terminated.sum())
assert obs["observation"].shape[0] == 4 and obs["action_mask"].any(axis=1).all()
assert ended > 0, "300 random decisions in 4 games and no round ended"
print("ok", ended)
"""

GYM_AND_PETTINGZOO = """
import gymnasium
import numpy as np
from unokit.rl import GYM_ID, uno_v1

env = gymnasium.make(GYM_ID)
obs, info = env.reset(seed=1)
action = int(np.flatnonzero(obs["action_mask"])[0])
env.step(action)

aec = uno_v1.env(num_players=3)
aec.reset(seed=1)
obs, reward, terminated, truncated, info = aec.last()
aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
print("ok")
"""


@EXTRAS
@pytest.mark.numba
def test_the_vector_environments_with_the_extras(extras: Venv, tmp_path: Path) -> None:
    """Both vector environments in one fresh process with an empty numba cache: the
    installed package compiles its kernels as on a new machine.  One process, not one
    each: they share their kernels.  Every entry point from an empty cache, the search
    and the simulator included, is tests/test_compiled_cold.py's business, on the
    checkout's sources (the wheel holds the same ones).  The Gym one goes first: it is
    the one an empty cache broke."""
    script = VECTOR_GYM_ENV + VECTOR_ENV
    p = extras.run(extras.python, "-c", script, timeout=COMPILE_TIMEOUT, numba_cache=tmp_path)
    assert p.returncode == 0 and p.stdout.count("ok") == 2, shown(p)


@EXTRAS
def test_the_gymnasium_and_pettingzoo_environments_with_the_extras(
    extras: Venv, tmp_path: Path
) -> None:
    p = extras.run(
        extras.python, "-c", GYM_AND_PETTINGZOO, timeout=COMPILE_TIMEOUT, numba_cache=tmp_path
    )
    assert p.returncode == 0 and p.stdout.startswith("ok"), shown(p)

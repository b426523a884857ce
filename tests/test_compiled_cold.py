"""The compiled code on an empty numba cache, as on a fresh install (issue 45).

Every other test of the compiled engine in the checkout runs with whatever numba's
cache holds, and the order of compilation changes what compiles: a function without
``_nrt`` takes the setting of the caller that compiles it first.  The RL environments'
opponents (``rl.vector_kernel.bot_act``, compiled without numba's runtime) called
``kernel.best_color``, which allocated: on an empty cache ``UnoVectorGymEnv.reset``
failed with a TypingError, and the suite passed only because earlier test files had
compiled ``best_color`` with the runtime first.  So:

* ``test_runtime_free_code_calls_only_runtime_free_code`` here reads the sources:
  whatever code compiled without the runtime calls says ``_nrt=False`` itself (then an
  allocation there fails on every compilation, in every order);
* ``tests/test_installed.py``'s ``test_every_compiled_entry_point_compiles_on_an_empty_
  cache`` runs every public compiled entry point of the installed wheel in a fresh
  process on an empty ``NUMBA_CACHE_DIR``, then ``unokit sim --engine compiled
  --check``.  One cold compilation there serves both the installed package and the
  empty cache (it ran here, on the checkout, as well: three CPU minutes for nothing
  more, as the wheel holds the same sources).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src" / "unokit"
COMPILED_SOURCES = (
    SRC / "compiled" / "kernel.py",
    SRC / "compiled" / "search.py",
    SRC / "rl" / "vector_kernel.py",
)


def _njit_functions() -> dict[str, tuple[bool, set[str]]]:
    """Every ``@njit`` function of the compiled sources: (``_nrt=False`` given, the
    names it calls)."""
    found: dict[str, tuple[bool, set[str]]] = {}
    for path in COMPILED_SOURCES:
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.FunctionDef):
                continue
            jit = [
                d
                for d in node.decorator_list
                if isinstance(d, ast.Call) and isinstance(d.func, ast.Name) and d.func.id == "njit"
            ]
            if not jit:
                continue
            no_runtime = any(
                kw.arg == "_nrt" and isinstance(kw.value, ast.Constant) and kw.value.value is False
                for kw in jit[0].keywords
            )
            calls = {
                n.func.id
                for n in ast.walk(node)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            }
            assert node.name not in found, f"two compiled functions named {node.name}"
            found[node.name] = (no_runtime, calls)
    return found


def test_runtime_free_code_calls_only_runtime_free_code() -> None:
    funcs = _njit_functions()
    assert {"bot_act", "best_color", "heur_choose", "play_round"} <= funcs.keys()
    unmarked = sorted(
        f"{caller} calls {callee}"
        for caller, (no_runtime, calls) in funcs.items()
        if no_runtime
        for callee in calls
        if callee in funcs and not funcs[callee][0]
    )
    assert unmarked == [], (
        "compiled without numba's runtime, these call functions that do not say "
        "_nrt=False (they inherit their first caller's setting; give them _nrt=False "
        "and no allocation): " + "; ".join(unmarked)
    )

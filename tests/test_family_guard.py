"""Front ends ask the game, never which game it is (issue 47, docs/architecture.md).

Outside the engine, the rules and card tables and the per-game rendering module (each
modern game's look in the terminal), no code may pick a behaviour by the kind of
game: no ``isinstance`` on a game class, no ``rules.modern``, no comparison with a
modern game's name, no ``getattr`` probe of a view's fields.  A component that plays
only some games declares them (``games = frozenset({...})``) and asks
``engine.family.plays``; a table keyed by game name is a declaration too.
"""

from __future__ import annotations

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "unokit"

# where knowing the game is the job: the engine, the rules' tables and card tables,
# and the per-game rendering module (each modern game's look in the terminal)
EXEMPT = (
    "engine/",
    "rules.py",
    "cards.py",
    "modern_cards.py",
    "tui/modern.py",
)

PATTERNS = {
    "isinstance on a game class": re.compile(
        r"isinstance\([^)]*\b(ClassicGame|ModernGame|FlipGame|NoMercyGame|ModernView)\b"
    ),
    "rules.modern": re.compile(r"\brules(\(\))?\.modern\b(?![.(])"),
    "a modern game's name compared": re.compile(
        r"""(deck|game|kind|name)["')\]]*\s*[!=]=\s*["'](flip|no-mercy|classic)["']"""
        r"""|["'](flip|no-mercy)["']\s*[!=]="""
    ),
    "a view probed with getattr": re.compile(
        r"(getattr|hasattr)\(\s*(view|v|self\.view\(\)|\w+_view)\s*,"
    ),
    "a game class's name compared": re.compile(
        r"""\.NAME\s*[!=]=|[!=]=\s*\w+\.NAME\b|__name__\s*[!=]=\s*["']\w*Game["']"""
        r"""|preset\s*[!=]=\s*["'](flip|no-mercy)["']|\bmatch\s+[\w.]*\.game\b"""
    ),
    "the modern decks listed to pick a behaviour": re.compile(r"\bin MODERN_DECKS\b"),
    # a classic deck's name: ask what it holds (cards.deck_has, plain_deck) or the
    # rules (numbers_start, default_hand_size)
    "a deck's name compared": re.compile(
        r"""deck\s*[!=]=\s*["']|deck\.startswith\(|deck\s+(not\s+)?in\s+\(\s*["']"""
    ),
}


def _offences(root: Path, suffix: str, exempt: tuple[str, ...]) -> list[str]:
    out = []
    for path in sorted(root.rglob(f"*{suffix}")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(exempt):
            continue
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#", 1)[0] if suffix == ".py" else line
            for what, pattern in PATTERNS.items():
                if pattern.search(code):
                    out.append(f"{rel}:{no}: {what}: {line.strip()}")
    return out


def test_no_front_end_asks_which_game_it_is() -> None:
    found = _offences(SRC, ".py", EXEMPT)
    assert found == [], "ask the game (descriptor, codec, view, Look) or declare games:\n" + (
        "\n".join(found)
    )


# the page: its options, prompts and words come from the server's per-game descriptors
# (``/api/rules``'s ``games``; web/render/game.js), never from the game's name
JS_GAME_NAME = re.compile(
    r"""\bgame\)?\s*[!=]==?\s*["'](flip|no-mercy|classic)["']"""
    r"""|["'](flip|no-mercy|classic)["']\s*[!=]==?\s*[\w.]*game\b"""
)


def test_the_page_asks_the_descriptor_not_the_game_name() -> None:
    found = []
    for path in sorted((SRC / "web").rglob("*.js")):
        for no, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if JS_GAME_NAME.search(line):
                found.append(f"{path.relative_to(SRC).as_posix()}:{no}: {line.strip()}")
    assert found == [], "read gameDescriptor(...) instead:\n" + "\n".join(found)
    assert JS_GAME_NAME.search('if (v.game === "no-mercy") return t("turn.roulette");')


def test_the_guard_sees_an_offence() -> None:
    """The patterns catch each kind of branch they are meant to (a guard that cannot fail
    guards nothing)."""
    lines = [
        "if isinstance(game, FlipGame):",
        "if rules.modern:",
        "if cfg.rules().modern:",
        'if summary.get("game") == "flip":',
        'if view.rules.deck == "no-mercy":',
        'side = getattr(view, "side", -1)',
        "if deck in MODERN_DECKS:",
        'r[k.R_NUMSTART] = int(rules.deck == "my-first-uno")',
        'and rules.deck in ("classic", "my-first-uno")',
        'if not rules.deck.startswith("mattel-2018"):',
        'if game.NAME == "flip":',
        'if hasattr(view, "side"):',
        'side = getattr(state_view, "side", -1)',
        'if type(game).__name__ == "FlipGame":',
        'if rules.preset == "no-mercy":',
        "match rules.game:",
    ]
    for line in lines:
        assert any(p.search(line) for p in PATTERNS.values()), line
    assert not any(p.search("if plays(bot_games(bot), rules):") for p in PATTERNS.values())

"""R-DECK (cards and codes), rule sets, actions' text forms, and malformed records."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import run, scenario
from unokit.cards import (
    CARD_CODE,
    NUM_CARDS,
    CardError,
    build_deck,
    card_points,
    parse_card,
)
from unokit.engine import Action, ActionParseError, Game
from unokit.record import dumps, replay_text
from unokit.rules import PRESETS, RulesError, RuleSet, from_preset, parse_option


def test_r_deck_1_classic_deck() -> None:
    deck = build_deck("classic")
    counts = Counter(CARD_CODE[c] for c in deck)
    assert len(deck) == 108
    assert sum(v for k, v in counts.items() if k[1:].isdigit()) == 76
    assert sum(v for k, v in counts.items() if k[0] in "RYGB" and not k[1:].isdigit()) == 24
    assert counts["W"] == 4 and counts["W+4"] == 4
    assert all(counts[f"{c}0"] == 1 and counts[f"{c}9"] == 2 for c in "RYGB")
    assert counts["RS"] == counts["YR"] == counts["G+2"] == 2


def test_r_deck_1_points() -> None:
    assert [card_points(parse_card(c)) for c in ("R0", "B9", "GS", "YR", "R+2", "W", "W+4")] \
        == [0, 9, 20, 20, 20, 50, 50]  # fmt: skip
    assert card_points(parse_card("W"), wild_points=20) == 20
    assert card_points(parse_card("WSWAP")) == 40


def test_r_deck_4_codes_round_trip() -> None:
    for c in range(NUM_CARDS):
        assert parse_card(CARD_CODE[c]) == c
        assert parse_card(CARD_CODE[c].lower()) == c


@pytest.mark.parametrize(
    ("text", "code"),
    [("red 7", "R7"), ("Wild Draw Four", "W+4"), ("blue skip", "BS"), (" y+2 ", "Y+2"),
     ("green reverse", "GR"), ("yellow draw two", "Y+2"), ("wild", "W"), ("b0", "B0")],
)  # fmt: skip
def test_r_deck_4_long_names_and_any_case(text: str, code: str) -> None:
    assert CARD_CODE[parse_card(text)] == code


@pytest.mark.parametrize("text", ["R10", "purple 7", "", "W+5", "RR7"])
def test_r_deck_4_bad_codes_are_refused_clearly(text: str) -> None:
    with pytest.raises(CardError, match="is not a card"):
        parse_card(text)


@given(st.sampled_from(["R7", "R7 uno", "W G", "W+4 B uno", "draw", "keep", "uno",
                        "catch 2", "challenge", "accept", "color Y"]))  # fmt: skip
def test_action_text_round_trips(text: str) -> None:
    a = Action.parse(text)
    assert str(a) == text
    assert eval(repr(a), {"Action": Action}) == a
    seat, b = Action.from_json(a.to_json(3))
    assert (seat, b) == (3, a)


def test_action_parse_errors_are_clear() -> None:
    with pytest.raises(ActionParseError, match="not an action"):
        Action.parse("hello world")
    with pytest.raises(ActionParseError, match="empty"):
        Action.parse("  ")


def test_every_preset_builds_and_round_trips() -> None:
    for name in PRESETS:
        rules = from_preset(name)
        again = from_preset(**rules.to_spec())
        assert again == rules and again.preset == name


def test_my_first_uno_hand_defaults_to_five() -> None:
    assert RuleSet(deck="my-first-uno").deal_size == 5
    assert RuleSet().deal_size == 7


@pytest.mark.parametrize(
    ("options", "message"),
    [({"stacking": "wild"}, "stacking cannot be"), ({"uno_penalty": -1}, "uno_penalty"),
     ({"nonsense": 1}, "unknown option"), ({"stack_draw4_on_draw2": True}, "progressive"),
     ({"launcher_weights": [1, 2]}, "13")],
)  # fmt: skip
def test_bad_rule_sets_are_refused_at_construction(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        from_preset("classic", options)


def test_nonsense_combinations_are_refused_at_construction() -> None:
    with pytest.raises(RulesError, match="Wild Customizable"):
        RuleSet(custom_rule="extra_turn")
    with pytest.raises(RulesError, match="cannot be combined"):
        RuleSet(attack_launcher=True, draw_until_playable=True)
    with pytest.raises(RulesError, match="4, 6 or 8"):
        Game(from_preset("teams"), 5)
    with pytest.raises(RulesError, match="2 to 4"):
        Game(from_preset("my-first-uno"), 5)


def test_parse_option_types_values() -> None:
    assert parse_option("uno_penalty=4") == ("uno_penalty", 4)
    assert parse_option("wd4_bluffing=false") == ("wd4_bluffing", False)
    assert parse_option("hand_size=5") == ("hand_size", 5)
    with pytest.raises(RulesError):
        parse_option("uno_penalty=lots")


# ---------------------------------------------------------------- malformed records
H3 = [["R1", "G2", "B3"], ["R4", "Y5", "B6"], ["G7", "Y8", "B9"]]


def _mut(fn: Any) -> dict[str, Any]:
    rec = scenario(H3, "R5", [{"seat": 1, "play": "R4"}])
    fn(rec)
    return rec


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r.update(format="pgn"), "unknown format"),
        (lambda r: r.update(players="Ana"), "players"),
        (lambda r: r.update(players=["Solo"]), "2 to 10 players"),
        (lambda r: r.update(rounds={}), "'rounds' must be a list"),
        (lambda r: r["rounds"][0].update(dealer=7), "dealer"),
        (lambda r: r["rounds"][0].update(deck=["R1", "Q9"]), "not a card"),
        (lambda r: r["rounds"][0].update(deck=["W"] * 5), "does not have"),
        (lambda r: r["rounds"][0]["actions"].append({"play": "R4"}), "seat"),
        (lambda r: r["rounds"][0]["actions"].append({"seat": 1, "dance": True}), "unknown keys"),
        (lambda r: r["rounds"][0]["actions"].append({"seat": 1, "draw": 1}), "must be true"),
        (lambda r: r["rounds"][0].update(shuffles=[["R1"]]), "reordering"),
        (lambda r: r["rules"].update(preset="chaos"), "unknown preset"),
        (lambda r: r["rules"].update(options={"uno_penalty": "two"}), "uno_penalty"),
        (lambda r: r["rules"].update(options={"custom_rule": "extra_turn"}), "Customizable"),
    ],
)
def test_malformed_records_exit_2_with_a_message(mutate: Any, message: str) -> None:
    rec = _mut(mutate)
    if message == "reordering":  # needs a shuffle to happen: a W+4 start card
        rec = scenario(H3, "W+4", [], shuffles=[["R1"]])
    status, out = replay_text(json.dumps(rec))
    assert status == 2
    assert isinstance(out, str) and message in out


def test_not_json_exits_2() -> None:
    status, out = replay_text("{not json")
    assert status == 2 and "not valid JSON" in str(out)


def test_unfinished_round_followed_by_another_stops_with_exit_1() -> None:
    rec = scenario(H3, "R5", [{"seat": 1, "play": "R4"}])
    rec["rounds"].append(dict(rec["rounds"][0]))
    status, out = run(rec)
    assert status == 1 and out["error"]["action"] == 1 and "not over" in out["error"]["message"]


def test_cli_replay_never_shows_a_traceback(tmp_path: Path) -> None:
    cases = {"empty.json": "", "list.json": "[]", "bad.json": '{"rounds": [1]}'}
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text)
        proc = subprocess.run(
            [sys.executable, "-m", "unokit.cli", "replay", str(path)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, name
    proc = subprocess.run(
        [sys.executable, "-m", "unokit.cli", "replay", str(tmp_path / "missing.json")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 2 and "cannot read" in proc.stderr


def test_written_record_lists_whole_deck_and_shuffles() -> None:
    from unokit.bots import RandomBot, play_game

    shuffled = 0
    for seed in range(10):
        g = Game(RuleSet(target_score=500), 4, seed=seed)
        play_game(g, [RandomBot(seed * 4 + i) for i in range(4)])
        rec = json.loads(dumps(g))
        assert all(len(r["deck"]) == 108 for r in rec["rounds"])
        for r in rec["rounds"]:
            for s in r.get("shuffles", []):
                shuffled += 1
                assert 0 < len(s) < 108
        assert replay_text(dumps(g))[0] == 0
    assert shuffled > 0, "some of these games rebuild the draw pile"

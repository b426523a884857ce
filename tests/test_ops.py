"""Operations (issue 35, item 5): /metrics, /readyz and JSON logs (unokit.server.ops).

The router is served by a tiny FastAPI app of its own, so these tests hold whatever
the server's app does with it: the metrics text parses with prometheus-client's own
parser and carries every metric; /readyz answers 200 only when every check passed and
503 naming the one that failed (a probe that raises, returns False or hangs); the JSON
formatter writes exactly one JSON object a line, with the room and request ids.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import Any

import pytest
from fastapi import FastAPI
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from unokit.server import ops


def app_with(ready: ops.Ready, timeout: float = ops.PROBE_SECONDS) -> TestClient:
    app = FastAPI()
    app.include_router(ops.ops_router(ready, timeout=timeout))
    return TestClient(app)


def ok_probe() -> ops.Probe:
    async def probe() -> None:
        return None

    return probe


def families(text: str) -> dict[str, Any]:
    return {f.name: f for f in text_string_to_metric_families(text)}


# ------------------------------------------------------------------ /metrics -------
def test_metrics_text_parses_and_names_every_metric() -> None:
    ops.ACTIONS.inc()
    ops.RECONNECTS.inc()
    ops.refused("not_your_turn")
    ops.refused("storage_unavailable")
    ops.COMMIT_SECONDS.observe(0.003)
    ops.TURN_SECONDS.observe(0.012)
    # as create_app does (a gauge read when scraped), whatever app another test made
    ops.ROOMS.set_function(lambda: 7)
    ops.CONNECTIONS.set_function(lambda: 12)
    client = app_with(ops.readiness(store=ok_probe()))
    r = client.get("/metrics")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/plain")
    found = families(r.text)
    for name in (
        "unokit_rooms",
        "unokit_connections",
        "unokit_actions",
        "unokit_refusals",
        "unokit_reconnects",
        "unokit_commit_seconds",
        "unokit_turn_seconds",
        "process_cpu_seconds",
    ):
        assert name in found, name
    assert found["unokit_rooms"].samples[0].value == 7
    assert found["unokit_connections"].samples[0].value == 12
    codes = {s.labels["code"] for s in found["unokit_refusals"].samples if "code" in s.labels}
    assert {"not_your_turn", "storage_unavailable"} <= codes
    commit = {s.name: s for s in found["unokit_commit_seconds"].samples if not s.labels.get("le")}
    assert commit["unokit_commit_seconds_count"].value >= 1
    buckets = [s for s in found["unokit_turn_seconds"].samples if s.name.endswith("_bucket")]
    assert buckets[-1].labels["le"] == "+Inf"


def test_counters_rise_and_unknown_codes_count_as_other() -> None:
    def value(name: str, **labels: str) -> float:
        got = ops.REGISTRY.get_sample_value(name, labels)
        return got or 0.0

    before = value("unokit_actions_total")
    before_other = value("unokit_refusals_total", code="other")
    ops.ACTIONS.inc()
    ops.ACTIONS.inc()
    ops.refused("<script>")  # never a label value a client chose
    ops.refused("x" * 500)
    assert value("unokit_actions_total") == before + 2
    assert value("unokit_refusals_total", code="other") == before_other + 2
    assert value("unokit_refusals_total", code="<script>") == 0.0


def test_gauge_can_read_the_server_when_scraped() -> None:
    rooms = {"A": 1, "B": 2, "C": 3}
    ops.ROOMS.set_function(lambda: len(rooms))
    try:
        assert ops.REGISTRY.get_sample_value("unokit_rooms") == 3
        rooms.pop("A")
        assert ops.REGISTRY.get_sample_value("unokit_rooms") == 2
    finally:
        ops.ROOMS.set_function(lambda: 0.0)


# ------------------------------------------------------------------ /readyz --------
def test_readyz_200_when_store_and_bus_answer() -> None:
    client = app_with(ops.readiness(store=ok_probe(), bus=ok_probe()))
    r = client.get("/readyz")
    assert r.status_code == 200
    assert r.json() == {"ok": True, "checks": {"store": True, "bus": True}}
    assert r.headers["cache-control"] == "no-store"


def test_readyz_503_names_the_bus_when_it_is_unreachable() -> None:
    async def bus() -> None:
        raise ConnectionRefusedError(111, "Connection refused")

    r = app_with(ops.readiness(store=ok_probe(), bus=bus)).get("/readyz")
    assert r.status_code == 503
    body = r.json()
    assert body["ok"] is False
    assert body["failed"] == ["bus"]
    assert body["checks"]["store"] is True
    assert "Connection refused" in body["checks"]["bus"]


def test_readyz_503_when_the_store_says_false_or_hangs() -> None:
    async def down() -> bool:
        return False

    async def hangs() -> None:
        await asyncio.sleep(30)

    r = app_with(ops.readiness(timeout=0.2, store=down, bus=hangs)).get("/readyz")
    assert r.status_code == 503
    assert r.json()["failed"] == ["store", "bus"]
    assert r.json()["checks"]["bus"] == "no answer within 0.2 s"


def test_readyz_503_when_the_ready_callable_itself_fails() -> None:
    async def broken() -> dict[str, Any]:
        raise RuntimeError("boom")

    r = app_with(broken).get("/readyz")
    assert r.status_code == 503
    assert r.json()["failed"] == ["ready"]

    async def slow() -> dict[str, Any]:
        await asyncio.sleep(30)
        return {}

    r = app_with(slow, timeout=0.2).get("/readyz")
    assert r.status_code == 503
    assert r.json()["failed"] == ["ready"]


def test_readyz_takes_a_plain_dict_of_checks() -> None:
    async def ready() -> dict[str, Any]:
        return {"store": True, "bus": "redis://127.0.0.1:6379/0: timed out"}

    r = app_with(ready).get("/readyz")
    assert r.status_code == 503
    assert r.json()["failed"] == ["bus"]


# ------------------------------------------------------------------ request ids ----
def test_request_id_is_the_proxys_when_plain_else_new() -> None:
    assert ops.request_id({"x-request-id": "0f3c9a7e41d2b5c6"}) == "0f3c9a7e41d2b5c6"
    for bad in ("", "a b", 'x"}{', "x" * 65, "\n"):
        made = ops.request_id({"x-request-id": bad})
        assert made != bad and len(made) == 16
    assert ops.request_id({}) != ops.request_id({})


# ------------------------------------------------------------------ JSON logs ------
@pytest.fixture
def json_log() -> Any:
    stream = io.StringIO()
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    handler = ops.install_json_logging(logging.DEBUG, stream)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])


def test_json_formatter_one_object_a_line_with_room_and_request_ids(json_log: Any) -> None:
    log = logging.getLogger("unokit.server")
    log.info("room created", extra={"room": "K7PQ2M", "request_id": "ab12"})
    log.warning('a name with "quotes"\nand a second line', extra={"room": "K7PQ2M", "seat": 2})
    try:
        raise ValueError("bad\nthing")
    except ValueError:
        log.exception("unexpected error", extra={"room": "ZZZZZZ"})
    log.debug("no extras")
    log.info("odd value", extra={"room": "K7PQ2M", "thing": object()})
    lines = json_log.getvalue().splitlines()
    assert len(lines) == 5
    rows = [json.loads(line) for line in lines]
    assert all(isinstance(r, dict) for r in rows)
    first = rows[0]
    assert first["level"] == "INFO"
    assert first["logger"] == "unokit.server"
    assert first["message"] == "room created"
    assert first["room"] == "K7PQ2M"
    assert first["request_id"] == "ab12"
    assert first["time"].endswith("Z") and first["time"][10] == "T"
    assert rows[1]["message"] == 'a name with "quotes"\nand a second line'
    assert rows[1]["seat"] == 2
    assert rows[2]["level"] == "ERROR" and rows[2]["room"] == "ZZZZZZ"
    assert "ValueError: bad" in rows[2]["exc"]
    assert set(rows[3]) == {"time", "level", "logger", "message"}
    assert rows[4]["thing"].startswith("<object object")


def test_install_json_logging_takes_uvicorns_lines_too(json_log: Any) -> None:
    logging.getLogger("uvicorn.error").info(
        "Started server process [%d]", 7, extra={"color_message": "Started \x1b[36m%d\x1b[0m"}
    )
    row = json.loads(json_log.getvalue().splitlines()[-1])
    assert row["logger"] == "uvicorn.error"
    assert row["message"] == "Started server process [7]"
    assert "color_message" not in row  # uvicorn's copy with terminal colours
    # installing again replaces our handler instead of writing every line twice
    again = ops.install_json_logging(logging.DEBUG, json_log)
    try:
        before = len(json_log.getvalue().splitlines())
        logging.getLogger("unokit.server").info("once", extra={"room": "K7PQ2M"})
        assert len(json_log.getvalue().splitlines()) == before + 1
    finally:
        logging.getLogger().removeHandler(again)

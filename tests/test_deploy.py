"""The deployment files (issue 35, item 6): docker-compose.yml, Dockerfile, deploy/nginx.conf.

No Docker daemon runs on these machines, so the compose file is checked the ways that
need none, as ``docker compose config`` would check it:

* against the Compose Specification's JSON schema, vendored as deploy/compose-spec.json
  from https://github.com/compose-spec/compose-spec/blob/170098ba07d9f53c383a41bfd4c5166b0a4529a6/schema/compose-spec.json
  (Apache-2.0), plus what the schema cannot say and ``config`` refuses: a
  ``depends_on``, network or volume that names nothing;
* with Debian's ``docker-compose`` (1.29, the Python one): ``docker-compose config``
  parses, interpolates and checks types without a daemon (here pointed at a socket
  that does not exist, to prove it).  ``make test`` installs it (scripts/machine.sh).  Docker's own
  ``docker compose config`` is run too where that plugin exists.

Broken copies of the file must be refused by both.  Then what the topology promises:
three replicas with the options ``unokit serve`` really takes, forwarded headers
believed from the proxy's address only, healthchecks and ``service_healthy`` order;
nginx's configuration accepted by ``nginx -t``; an image that runs as a user.
"""

from __future__ import annotations

import argparse
import copy
import ipaddress
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from unokit.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "docker-compose.yml"
SCHEMA = ROOT / "deploy" / "compose-spec.json"
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
DOCKERFILE = ROOT / "Dockerfile"

sys.path.insert(0, str(ROOT / "scripts"))
import cluster as topology  # noqa: E402  (scripts/cluster.py: make cluster's nginx)

# services: real redis-server, nginx, PostgreSQL or docker-compose
pytestmark = [pytest.mark.services]


def compose() -> dict[str, Any]:
    doc = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(doc, dict)
    return doc


# ------------------------------------------------------------------ the checks -----
def problems(doc: dict[str, Any]) -> list[str]:
    """What ``docker compose config`` would refuse: the schema's errors, then names
    that point nowhere (services in ``depends_on``, networks, named volumes)."""
    schema = json.loads(SCHEMA.read_text())
    found = [
        f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
        for e in jsonschema.Draft7Validator(schema).iter_errors(doc)
    ]
    if found:
        return found
    services = doc.get("services") or {}
    networks = set(doc.get("networks") or {}) | {"default"}
    volumes = set(doc.get("volumes") or {})
    for name, svc in services.items():
        deps = svc.get("depends_on") or []
        for dep in deps if isinstance(deps, list) else deps.keys():
            if dep not in services:
                found.append(f"services/{name}: depends on {dep!r}, which is undefined")
        nets = svc.get("networks") or []
        for net in nets if isinstance(nets, list) else nets.keys():
            if net not in networks:
                found.append(f"services/{name}: network {net!r} is undefined")
        for vol in svc.get("volumes") or []:
            source = vol.split(":")[0] if isinstance(vol, str) else vol.get("source", "")
            named = source and not source.startswith((".", "/", "~", "$"))
            if named and source not in volumes:
                found.append(f"services/{name}: volume {source!r} is undefined")
    return found


def docker_compose_config(folder: Path) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("docker-compose")
    if exe is None:
        pytest.fail(
            "Debian's docker-compose is not installed (apt-get install docker-compose, as "
            "make test does): it checks docker-compose.yml as `docker compose config` does",
            pytrace=False,
        )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("POSTGRES_", "UNOKIT_"))}
    env["DOCKER_HOST"] = "unix:///nonexistent/docker.sock"  # no daemon needed
    return subprocess.run(
        [exe, "--file", "docker-compose.yml", "config", "--quiet"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def serve_options() -> set[str]:
    """Every option ``unokit serve`` takes, from its own parser."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return set(sub.choices["serve"]._option_string_actions)


# ------------------------------------------------------------------ compose --------
def test_compose_file_meets_the_compose_specification() -> None:
    assert problems(compose()) == []


def test_docker_compose_config_accepts_it_without_a_daemon() -> None:
    done = docker_compose_config(ROOT)
    assert done.returncode == 0, done.stderr
    docker = shutil.which("docker")
    if docker is not None:  # Docker's own compose, where its plugin is installed
        has = subprocess.run([docker, "compose", "version"], capture_output=True, timeout=60)
        if has.returncode == 0:
            done = subprocess.run(
                [docker, "compose", "config", "--quiet"], cwd=ROOT, capture_output=True,
                text=True, timeout=120,
            )  # fmt: skip
            assert done.returncode == 0, done.stderr


def _broken(doc: dict[str, Any], how: str) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    app = doc["services"]["app"]
    if how == "unknown key":
        app["restrat"] = "always"
    elif how == "depends on nothing":
        app["depends_on"]["postgress"] = {"condition": "service_healthy"}
    elif how == "bad condition":
        app["depends_on"]["postgres"]["condition"] = "healthy"
    elif how == "undefined network":
        app["networks"] = ["front"]
    elif how == "undefined volume":
        doc["services"]["postgres"]["volumes"] = ["pgdat:/var/lib/postgresql/data"]
    elif how == "healthcheck as text":
        app["healthcheck"] = "curl localhost"
    return doc


# (how it is broken, whether Debian's docker-compose 1.29 refuses it too: its `config`
# leaves an undefined network to `up`; Docker's compose 2 refuses it in `config`)
BROKEN = [
    ("unknown key", True),
    ("depends on nothing", True),
    ("bad condition", True),
    ("undefined network", False),
    ("undefined volume", True),
    ("healthcheck as text", True),
]


@pytest.mark.parametrize(("how", "v1_refuses"), BROKEN)
def test_a_broken_compose_file_is_refused(how: str, v1_refuses: bool, tmp_path: Path) -> None:
    doc = _broken(compose(), how)
    assert problems(doc), how
    (tmp_path / "docker-compose.yml").write_text(yaml.safe_dump(doc, sort_keys=False))
    done = docker_compose_config(tmp_path)
    assert (done.returncode != 0) == v1_refuses, (how, done.stderr)


def test_a_wrong_type_is_refused_by_docker_compose(tmp_path: Path) -> None:
    # the schema takes any string where a number may come from ${VARIABLE}
    doc = compose()
    doc["services"]["app"]["deploy"]["replicas"] = "three"
    (tmp_path / "docker-compose.yml").write_text(yaml.safe_dump(doc, sort_keys=False))
    done = docker_compose_config(tmp_path)
    assert done.returncode != 0
    assert "replicas" in done.stderr


def test_three_replicas_on_postgres_and_redis_behind_the_proxy() -> None:
    doc = compose()
    services = doc["services"]
    app, proxy = services["app"], services["proxy"]
    assert app["deploy"]["replicas"] == 3
    assert "ports" not in app, "players reach the processes through the proxy only"
    assert services["postgres"]["image"].startswith("postgres:15")
    assert services["redis"]["image"].startswith("redis:7")
    assert proxy["image"].startswith("nginx:")
    cmd: list[str] = app["command"]
    assert cmd[:2] == ["unokit", "serve"]
    given = {a for a in cmd if a.startswith("--")}
    unknown = given - serve_options()
    assert not unknown, f"unokit serve does not take {sorted(unknown)}"

    def value(option: str) -> str:
        return cmd[cmd.index(option) + 1]

    assert value("--host") == "0.0.0.0"
    assert value("--store").startswith("postgresql://")
    assert "@postgres:5432/" in value("--store")
    assert value("--bus") == "redis://redis:6379/0"
    # forwarded headers are believed from the proxy's fixed address, and only from it
    proxy_ip = proxy["networks"]["backend"]["ipv4_address"]
    assert value("--forwarded-allow-ips") == proxy_ip
    subnet = doc["networks"]["backend"]["ipam"]["config"][0]["subnet"]
    assert ipaddress.ip_address(proxy_ip) in ipaddress.ip_network(subnet)
    # each waits for what it needs to be healthy, and each can say so
    assert app["depends_on"] == {
        "postgres": {"condition": "service_healthy"},
        "redis": {"condition": "service_healthy"},
    }
    assert proxy["depends_on"] == {"app": {"condition": "service_healthy"}}
    for name, svc in services.items():
        assert "healthcheck" in svc, name
    assert "/healthz" in " ".join(app["healthcheck"]["test"])
    assert "./deploy/nginx.conf:/etc/nginx/nginx.conf:ro" in proxy["volumes"]
    assert app["stop_grace_period"] == "30s"


# ------------------------------------------------------------------ nginx ----------
def _nginx() -> str:
    try:
        return topology.program("nginx")
    except topology.ClusterError as e:
        pytest.fail(str(e), pytrace=False)


def nginx_t(text: str, folder: Path) -> subprocess.CompletedProcess[str]:
    conf = folder / "nginx.conf"
    conf.write_text(text if "pid " in text else f"pid {folder / 'nginx.pid'};\n{text}")
    return subprocess.run(
        [_nginx(), "-t", "-p", str(folder), "-c", str(conf), "-e", str(folder / "error.log")],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_nginx_accepts_the_deploy_configuration(tmp_path: Path) -> None:
    text = NGINX_CONF.read_text()
    # Debian's nginx (1.22) lacks two things of the image's (1.28): the image's user,
    # and re-resolving an upstream's name ("resolve", nginx 1.27.3)
    assert "user nginx;" in text and "server app:8000 resolve" in text
    here = text.replace("user nginx;", "").replace("server app:8000 resolve", "server app:8000")
    here = here.replace("server app:8000", "server 127.0.0.1:8000")
    done = nginx_t(here, tmp_path)
    assert done.returncode == 0, done.stderr
    broken = nginx_t(here.replace("proxy_http_version 1.1;", "proxy_http_versoin 1.1;"), tmp_path)
    assert broken.returncode != 0


def test_nginx_accepts_make_clusters_configuration(tmp_path: Path) -> None:
    text = topology.NGINX_CONF.format(
        base=tmp_path, servers="        server 127.0.0.1:1;", port=topology.free_port()
    )
    (tmp_path / "nginx-tmp").mkdir()
    done = nginx_t(text, tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("which", ["deploy/nginx.conf", "scripts/cluster.py"])
def test_both_proxies_upgrade_websockets_and_overwrite_forwarded_headers(which: str) -> None:
    text = NGINX_CONF.read_text() if which.startswith("deploy") else topology.NGINX_CONF
    directives = re.sub(r"#[^\n]*", "", text).replace("{{", "{").replace("}}", "}")
    for needed in (
        "proxy_http_version 1.1;",
        "proxy_set_header Upgrade $http_upgrade;",
        "proxy_set_header Connection $connection_upgrade;",
        "proxy_set_header X-Forwarded-For $remote_addr;",
        "proxy_set_header X-Forwarded-Proto $scheme;",
        "proxy_set_header X-Request-ID $request_id;",
        "proxy_read_timeout 3600s;",
    ):
        assert needed in directives, needed
    assert "$proxy_add_x_forwarded_for" not in directives  # would keep the client's
    # room affinity (issue 48 item 5): a room's code, hashed consistently, picks its
    # process; never the client's address (one router, many rooms) nor a cookie
    assert re.search(r"hash \$unokit_key( consistent)?;", directives)
    for sticky in ("ip_hash", "sticky", "hash $remote_addr"):
        assert sticky not in directives, sticky
    assert re.search(r"location = /metrics \{\s*return 404;", directives)


# ------------------------------------------------------------------ the image ------
def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments), continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    rows = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            rows.append((word.upper(), rest.strip()))
    return rows


def test_the_image_is_slim_runs_as_a_user_and_checks_healthz() -> None:
    rows = dockerfile()
    bases = [args for word, args in rows if word == "FROM"]
    assert bases and all("slim" in b for b in bases)
    last_from = max(i for i, (word, _) in enumerate(rows) if word == "FROM")
    final = rows[last_from:]
    users = [args for word, args in final if word == "USER"]
    assert users and users[-1] not in ("root", "0")
    words = [word for word, _ in final]
    assert words.index("USER") < words.index("CMD")
    health = next(args for word, args in final if word == "HEALTHCHECK")
    assert "/healthz" in health
    port = re.search(r"127\.0\.0\.1:(\d+)/healthz", health)
    assert port is not None
    assert next(args for word, args in final if word == "EXPOSE") == port.group(1)
    cmd = json.loads(next(args for word, args in final if word == "CMD"))
    assert cmd[:2] == ["unokit", "serve"]
    assert {a for a in cmd if a.startswith("--")} <= serve_options()
    assert cmd[cmd.index("--port") + 1] == port.group(1)


def test_the_image_installs_extras_that_exist_from_files_it_is_given() -> None:
    rows = dockerfile()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    extras = set(pyproject["project"]["optional-dependencies"])
    install = next(args for word, args in rows if word == "RUN" and "pip install" in args)
    wanted = re.search(r"\.\[([a-z,]+)\]", install)
    assert wanted is not None
    assert set(wanted.group(1).split(",")) <= extras
    assert {"postgres", "redis"} <= set(wanted.group(1).split(","))
    kept = [
        line[1:].rstrip("/")
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.startswith("!")
    ]
    for word, args in rows:
        if word == "COPY" and not args.startswith("--from"):
            *sources, _ = args.split()
            for source in sources:
                assert (ROOT / source).exists(), source
                assert source.rstrip("/") in kept, f"{source} is left out by .dockerignore"


def test_the_deploy_proxy_keeps_a_room_on_one_replica_of_a_name_with_many_addresses(
    tmp_path: Path,
) -> None:
    """Room affinity as Docker runs it: "app" is one name for every replica.  With
    "hash ... consistent" nginx built its ring from that one name and alternated
    between the replicas (a hostile review measured it).  Here, in a mount namespace
    of its own, "app" resolves to 127.0.0.2 and 127.0.0.3, two tiny servers answer
    with their address, and the deploy configuration's proxy keeps each room's
    requests on one of them while different rooms spread."""
    text = NGINX_CONF.read_text().replace("user nginx;", "")
    text = text.replace("server app:8000 resolve", "server app:8000")
    text = text.replace("resolver 127.0.0.11 valid=5s ipv6=off;", "")
    text = text.replace("listen 80;", "listen 127.0.0.1:18080;")
    text = text.replace("access_log /dev/stdout unokit;", "access_log off;")
    text = text.replace("error_log /dev/stderr warn;", f"error_log {tmp_path}/err.log;")
    text = text.replace("worker_processes auto;", f"worker_processes 1;\npid {tmp_path}/nginx.pid;")
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp = "\n".join(f"    {k}_temp_path {tmp_path}/{k};" for k in kinds)
    text = text.replace("http {", "http {\n" + temp, 1)
    (tmp_path / "nginx.conf").write_text(text)
    (tmp_path / "hosts").write_text("127.0.0.1 localhost\n127.0.0.2 app\n127.0.0.3 app\n")
    (tmp_path / "srv.py").write_text(
        "import http.server, sys\n"
        "class H(http.server.BaseHTTPRequestHandler):\n"
        "    def do_GET(self):\n"
        "        b = sys.argv[1].encode(); self.send_response(200)\n"
        "        self.send_header('Content-Length', str(len(b))); self.end_headers()\n"
        "        self.wfile.write(b)\n"
        "    def log_message(self, *a): pass\n"
        "http.server.HTTPServer((sys.argv[1], 8000), H).serve_forever()\n"
    )
    (tmp_path / "up.py").write_text(
        "import socket\n"
        "for h in ('127.0.0.2', '127.0.0.3'):\n"
        "    socket.create_connection((h, 8000), 1).close()\n"
    )
    (tmp_path / "get.py").write_text(
        "import sys, urllib.request\n"
        "url = 'http://127.0.0.1:18080/r/' + sys.argv[1]\n"
        "print(urllib.request.urlopen(url, timeout=5).read().decode())\n"
    )
    codes = ["ABCDEF", "GHJKLM", "QWERTY", "ZXCVBN", "PLMOKN", "UHBYGV"]
    NGINX = _nginx()
    script = f"""
set -e
mount --bind {tmp_path}/hosts /etc/hosts
{sys.executable} {tmp_path}/srv.py 127.0.0.2 & A=$!
{sys.executable} {tmp_path}/srv.py 127.0.0.3 & B=$!
trap 'kill $A $B; {NGINX} -p {tmp_path} -c {tmp_path}/nginx.conf -s stop 2>/dev/null || true' EXIT
for i in $(seq 100); do {sys.executable} {tmp_path}/up.py 2>/dev/null && break; sleep 0.05; done
{NGINX} -p {tmp_path} -c {tmp_path}/nginx.conf
for code in {" ".join(c for c in codes for _ in range(4))}; do
  echo "$code $({sys.executable} {tmp_path}/get.py $code)"
done
"""
    done = subprocess.run(["unshare", "-m", "bash", "-c", script], capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    seen: dict[str, set[str]] = {}
    for line in done.stdout.split("\n"):
        if line.strip():
            code, _, where = line.partition(" ")
            seen.setdefault(code, set()).add(where)
    assert sorted(seen) == sorted(codes), done.stderr[-800:]
    assert all(w != {""} for w in seen.values()), done.stderr[-1500:]
    assert all(len(w) == 1 for w in seen.values()), (seen, done.stderr[-800:])  # one each
    assert len(set().union(*seen.values())) == 2, seen  # and rooms on both

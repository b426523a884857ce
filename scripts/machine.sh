#!/usr/bin/env bash
# The machine's set-up for `make test` (and so CI, which calls make test): every Debian
# package the tests drive as a real program, installed when missing and allowed (root,
# or sudo without a password), else one line naming what to run.  It installs nothing
# when everything is there, so a second `make test` pays nothing for it.
#
#   chromium         the browser tests (tests/e2e), through Playwright, never a download
#   postgresql       initdb/pg_ctl for a throwaway cluster (tests/test_pgstore.py, ...)
#   redis-server     the cluster's bus (tests/test_bus.py, tests/test_cluster*.py)
#   nginx            the cluster's proxy (tests/test_cluster_topology.py, test_deploy.py)
#   docker-compose   `docker-compose config` checks docker-compose.yml (no daemon needed)
#   nodejs           the web page's own tests (tests/js, node --test)
#   python3-venv     `python3 -m venv` for .venv (Debian's python3 lacks ensurepip)
set -euo pipefail
chromium=${UNOKIT_CHROMIUM:-/usr/bin/chromium}

missing=()
[ -x "$chromium" ] || missing+=(chromium)
command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 \
    || missing+=(postgresql)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
command -v node >/dev/null 2>&1 || missing+=(nodejs)
"${PYTHON:-python3}" -c 'import ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
[ ${#missing[@]} -eq 0 ] && exit 0

what="the tests need Debian's ${missing[*]}"
if [ "$(id -u)" = 0 ]; then sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo=(sudo -n)
else
    echo "make test: $what; run: sudo apt-get install ${missing[*]} (then make test again)" >&2
    exit 1
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "make test: $what and there is no apt-get here; install them with this system's packages" >&2
    exit 1
fi
echo "make test: installing ${missing[*]} (apt-get install, once for this machine)" >&2
if ! { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
       "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
           -o DPkg::Lock::Timeout=600 "${missing[@]}" >/dev/null; }; then
    echo "make test: installing ${missing[*]} failed (see above); run: sudo apt-get install ${missing[*]}" >&2
    exit 1
fi
# Debian starts the services it installs; the tests run their own throwaway copies on
# free ports, so the system's copies are stopped (where a service manager runs at all).
for svc in redis-server nginx postgresql; do
    if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet "$svc" 2>/dev/null; then
        "${sudo[@]}" systemctl stop "$svc" 2>/dev/null || true
    fi
done
[ -x "$chromium" ] || { echo "make test: chromium installed but not at $chromium; run: make test CHROMIUM=/path/to/chromium" >&2; exit 1; }

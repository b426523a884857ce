# unokit serve in a container (docs/deploy.md).  docker-compose.yml runs three of these
# on PostgreSQL and Redis behind nginx; alone, it keeps its games in SQLite under
# /data (mount a volume there):
#   docker build -t unokit . && docker run -p 8000:8000 -v unokit-data:/data unokit

# Build stage: the package and its dependencies into a virtual environment.
FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
COPY pyproject.toml README.md ./
COPY src ./src
RUN python -m venv /opt/unokit \
    && /opt/unokit/bin/pip install ".[postgres,redis]"

# Run stage: the same slim base, the environment, and a user without privileges.
FROM python:3.11-slim-bookworm
RUN groupadd --system --gid 10001 unokit \
    && useradd --system --uid 10001 --gid unokit --home-dir /home/unokit --create-home unokit \
    && mkdir /data && chown unokit:unokit /data
COPY --from=build /opt/unokit /opt/unokit
ENV PATH=/opt/unokit/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    XDG_DATA_HOME=/data
USER unokit
WORKDIR /home/unokit
VOLUME ["/data"]
EXPOSE 8000
# Liveness: the process answers.  Readiness (store and bus reachable) is /readyz.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"]
# SIGTERM (docker stop) lets unokit serve finish what it is doing before it exits.
STOPSIGNAL SIGTERM
CMD ["unokit", "serve", "--host", "0.0.0.0", "--port", "8000"]

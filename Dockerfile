# The application image: crawl workers, the scheduler, migrations and the API
# (`python -m crawler …`, `scrapy crawl site`), from Debian's Python 3.11 and PyPI.
# BASE: a Debian bookworm image; `make images` makes a local one (deploy/images.sh).
ARG BASE=debian:bookworm-slim
FROM ${BASE}
ENV DEBIAN_FRONTEND=noninteractive LANG=C.UTF-8 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
COPY deploy/ca/ /tmp/ca/
RUN apt-get update -q \
    && apt-get install -y -q --no-install-recommends python3 python3-venv ca-certificates \
    && (cp /tmp/ca/*.crt /usr/local/share/ca-certificates/ 2>/dev/null || true) \
    && update-ca-certificates \
    && apt-get clean && rm -rf /var/lib/apt/lists/* /tmp/ca \
    && python3 -m venv /opt/venv \
    && useradd --system --home-dir /app --shell /usr/sbin/nologin crawler
ENV PATH=/opt/venv/bin:$PATH
WORKDIR /app
# The dependencies first, from pyproject.toml alone: this layer is rebuilt only when they change.
COPY pyproject.toml ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -q -r /tmp/requirements.txt && rm /tmp/requirements.txt
COPY alembic.ini scrapy.cfg ./
COPY migrations migrations
COPY pipelines pipelines
COPY models models
COPY reading reading
COPY crawler crawler
RUN mkdir -p var/journal && chown -R crawler: var
USER crawler
ENV PYTHONPATH=/app JOURNAL_DIR=/app/var/journal
CMD ["python", "-m", "crawler", "--help"]

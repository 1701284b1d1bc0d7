# Caserne: slim image, non-root user, serves on $PORT, applies pending migrations at start.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATABASE_URL=sqlite:////data/caserne.sqlite3

RUN useradd --create-home --uid 10001 caserne && mkdir /data && chown caserne /data
WORKDIR /app

# The locked versions (each file checked against its hash), then the app itself: it reads
# data/, templates/ and static/ beside its package, so it is installed in place.
COPY requirements/base.txt ./requirements/base.txt
RUN pip install --require-hashes -r requirements/base.txt
COPY pyproject.toml README.md ./
COPY app ./app
RUN pip install --no-deps -e .

COPY alembic.ini ./
COPY alembic ./alembic
COPY data ./data
COPY templates ./templates
COPY static ./static

USER caserne
VOLUME ["/data"]
EXPOSE 8000
# `caserne serve` runs the migrations (under a PostgreSQL advisory lock), then uvicorn.
CMD ["sh", "-c", "exec caserne serve --host \"$HOST\" --port \"$PORT\""]

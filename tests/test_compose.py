"""compose.yaml (issue 29, « A deployment that runs on existing engines »): PostgreSQL,
PgBouncer, Redis, two app processes and nginx in front, as the README's steps run it. Read
here for what the app needs of it (every variable it sets is a setting, PgBouncer's URLs
with prepared statements off, the shared rate-limit counts, the files it names), and checked
by `docker compose config` (or Debian's docker-compose) where one is installed; no image is
pulled or built."""

import shutil
import subprocess
from pathlib import Path
from typing import Any

import yaml

from app.settings import ROOT, Settings
from tests.conftest import missing

COMPOSE = ROOT / "compose.yaml"
# Read by `caserne serve` and uvicorn rather than by Settings.
SERVE_VARIABLES = {"HOST", "PORT", "WEB_CONCURRENCY", "FORWARDED_ALLOW_IPS"}


def services() -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())["services"]
    return found


def test_the_engines_and_two_app_processes() -> None:
    found = services()
    assert set(found) == {"postgres", "pgbouncer", "redis", "app1", "app2", "proxy"}
    assert found["app1"] == found["app2"]  # one definition, two processes
    assert found["app1"]["build"] == "."
    assert (ROOT / "Dockerfile").is_file()
    assert (ROOT / found["pgbouncer"]["build"] / "Dockerfile").is_file()
    mounted = found["proxy"]["volumes"][0].split(":")[0]
    assert (ROOT / mounted).is_file()


def test_the_apps_settings_are_settings() -> None:
    environment: dict[str, str] = services()["app1"]["environment"]
    fields = {name.upper() for name in Settings.model_fields}
    assert set(environment) - fields - SERVE_VARIABLES == set()
    assert environment["DATABASE_URL"].endswith("@pgbouncer:6432/caserne")
    assert environment["DATABASE_READ_URL"].endswith("@pgbouncer:6432/caserne_read")
    assert environment["DATABASE_PREPARE_THRESHOLD"] == "0"
    assert environment["RATE_LIMIT_STORAGE"] == "redis://redis:6379/0"


def test_pgbouncer_pools_transactions_and_reads_read_only() -> None:
    entrypoint = (ROOT / "deploy" / "pgbouncer" / "entrypoint.sh").read_text()
    assert "pool_mode = transaction" in entrypoint
    assert "caserne_read = " in entrypoint
    assert "connect_query='SET default_transaction_read_only = on'" in entrypoint


def test_nginx_caches_what_the_app_allows_and_counts_real_clients() -> None:
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "server app1:8000;" in conf and "server app2:8000;" in conf
    assert "proxy_cache caserne;" in conf
    assert "proxy_no_cache $http_authorization;" in conf
    assert "proxy_cache_bypass $http_authorization;" in conf
    # Replaced, not appended: a client cannot pick the address the rate limits count.
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in conf
    assert "proxy_cache_valid" not in conf  # the app's Cache-Control decides


def compose_command() -> list[str]:
    docker = shutil.which("docker")
    if docker is not None:
        plugin = subprocess.run([docker, "compose", "version"], capture_output=True, check=False)
        if plugin.returncode == 0:
            return [docker, "compose"]
    standalone = shutil.which("docker-compose")
    if standalone is not None:
        return [standalone]
    missing(
        "neither `docker compose` nor docker-compose is installed: compose.yaml not validated",
        "CASERNE_REQUIRE_COMPOSE",
    )


def test_docker_compose_reads_it(tmp_path: Path) -> None:
    command = [*compose_command(), "-f", str(COMPOSE), "config", "-q"]
    env = {"PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(tmp_path)}
    refused = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert refused.returncode != 0
    assert "set POSTGRES_PASSWORD" in refused.stderr
    env["POSTGRES_PASSWORD"] = "example-password"
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr

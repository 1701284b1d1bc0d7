"""Runtime configuration, read once from the environment (and an optional .env file)."""

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    """Everything an operator may set. Names are the environment variables, case-insensitive."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = f"sqlite:///{ROOT / 'caserne.sqlite3'}"
    # An optional second URL the public reads use (a PostgreSQL replica, a read-only role,
    # a SQLite file opened with ?mode=ro): share pages and exports, published books,
    # campaign standings and public gang pages, the catalogue pages, GET /api/v1/shares/...
    # Empty: everything on DATABASE_URL. Writes, the editor and every request carrying a
    # carnet cookie or a token stay on DATABASE_URL (app/deps.py, ReadSessionDep).
    database_read_url: str = ""
    # PostgreSQL only: connections each process keeps open, and how many more it may open at
    # a peak (SQLAlchemy's pool_size and max_overflow). A process holds up to their sum:
    # processes × (pool + overflow) must stay under the server's max_connections (100 by
    # default), or under PgBouncer's pool when it sits in front (README « PostgreSQL »).
    database_pool_size: int = Field(default=10, ge=1, le=200)
    database_max_overflow: int = Field(default=10, ge=0, le=200)
    # PostgreSQL only: psycopg prepares a statement on a connection after it ran this many
    # times there; 0 turns that off (PgBouncer in transaction mode before 1.21, or without
    # max_prepared_statements, cannot keep prepared statements between transactions).
    database_prepare_threshold: int = Field(default=5, ge=0, le=1000)
    # Public base URL used in share links and exports (e.g. "https://caserne.example").
    # Empty: taken from each request.
    public_url: str = ""
    # Largest request body accepted, in bytes (a 50-entry roster is about 5 kB).
    max_body_bytes: int = 1_000_000
    # Longest query string accepted, in bytes (Caserne's own URLs carry a 43-character token
    # at most); longer ones get 414 before anything parses them.
    max_query_bytes: int = 2048
    # Worker processes for heavy calculator bodies (over 64 kB): 0 computes them in a thread
    # of the serving process, where they still hold its GIL (app/api/v1/heavy.py). One by
    # default: with 0, /healthz p99 was 103 ms while 8 clients sent heavy validations, with
    # 1 it was 10 ms (bench/abuse_bench.py, stall). Spawned at the first heavy body only.
    heavy_processes: int = Field(default=1, ge=0, le=64)
    # Heavy bodies that may wait for a worker (beyond those computing), and how many of them
    # one client address may have waiting; past either, a 503 with Retry-After. Waiting
    # bodies take their turn client by client (app/api/v1/heavy.py, HeavyQueue): 40 heavy
    # validations at once from one client made another's wait 39 s (bench/abuse_bench.py,
    # flood; issue 25: 300 made it 71.8 s and the process grow 119 -> 385 MB).
    heavy_queue: int = Field(default=16, ge=0, le=10_000)
    heavy_queue_per_client: int = Field(default=4, ge=1, le=10_000)
    # The engines remember each entry's result and summary lines (app/systems/memo.py): a
    # save changes one entry, the others are answered from memory. Off: every entry is
    # computed at every call (the answers are the same: tests/systems/test_engine_memo.py).
    engine_memo: bool = True
    # Seconds a share may be cached by browsers and proxies (shares never change).
    share_max_age: int = 86_400
    # Seconds the standings and a gang's public page may be cached by browsers and proxies
    # (they change with the campaign; a copy is revalidated by its ETag, answered 304).
    campaign_max_age: int = Field(default=60, ge=0, le=86_400)
    # Hosts accepted in the Host header when PUBLIC_URL is empty (comma-separated; "*" for
    # any). With PUBLIC_URL set, every request is answered as PUBLIC_URL's host.
    allowed_hosts: str = "localhost,127.0.0.1,testserver,[::1]"
    # Where the rate limits count: "memory://" (one process) or a Redis URL such as
    # "redis://127.0.0.1:6379/0" (counts shared by every worker and machine).
    rate_limit_storage: str = "memory://"
    # Prefix of the counters' keys in the storage (several deployments sharing one Redis).
    rate_limit_key_prefix: str = "caserne"
    # Limits in the `limits` notation ("30/minute;200/hour"), per client address; "" turns
    # one off. The routes each counts: app/security/routes.py's ROUTES (README's table).
    # Creation: new rosters, carnets, books, campaigns, and every copy of one.
    rate_limit_create: str = "30/minute;200/hour"
    # New shares: of a list (API, the editor's "Partager"), of a book ("Publier").
    rate_limit_share: str = "30/minute;200/hour"
    # Writes to what exists: lists, books, carnets, campaigns and battle lines.
    rate_limit_write: str = "120/minute;2000/hour"
    # A carnet's new key (API and "Mes listes").
    rate_limit_key: str = "10/minute;30/hour"
    # KiB of JSON documents stored by a client's counted requests (rosters, shares, books,
    # ledgers), charged once each has answered (a copy of a 504 KB book is ~490 KiB): 16 MiB
    # a minute, 128 MiB an hour, in a fixed window.
    rate_limit_stored: str = "16384/minute;131072/hour"
    # Failed secret checks (401/403 where an edit token, a carnet key, a campaign's join
    # code or token is checked, in a header, the query, a cookie or a body), per client...
    rate_limit_failed_auth: str = "20/minute;100/hour"
    # ... and per roster (carnet, book, campaign), whoever tries.
    rate_limit_failed_auth_roster: str = "30/minute;200/hour"

    @property
    def allowed_host_list(self) -> list[str]:
        return [host.strip() for host in self.allowed_hosts.split(",") if host.strip()]


@lru_cache
def get_settings() -> Settings:
    return Settings()

"""Runtime configuration, read once from the environment (and an optional .env file)."""

from functools import lru_cache
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    """Everything an operator may set. Names are the environment variables, case-insensitive."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = f"sqlite:///{ROOT / 'caserne.sqlite3'}"
    # Public base URL used in share links and exports (e.g. "https://caserne.example").
    # Empty: taken from each request.
    public_url: str = ""
    # Largest request body accepted, in bytes (a 50-entry roster is about 5 kB).
    max_body_bytes: int = 1_000_000
    # Seconds a share may be cached by browsers and proxies (shares never change).
    share_max_age: int = 86_400
    # Hosts accepted in the Host header when PUBLIC_URL is empty (comma-separated; "*" for
    # any). With PUBLIC_URL set, every request is answered as PUBLIC_URL's host.
    allowed_hosts: str = "localhost,127.0.0.1,testserver,[::1]"
    @property
    def allowed_host_list(self) -> list[str]:
        return [host.strip() for host in self.allowed_hosts.split(",") if host.strip()]


@lru_cache
def get_settings() -> Settings:
    return Settings()

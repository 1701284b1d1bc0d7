"""`caserne serve --workers N` with rate limits counted in memory says, in one line, that
each process counts on its own (N× the limits) and how to share the counts (issue 29)."""

import pytest

from app import cli
from app.settings import get_settings


def serve(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[str, str, list[dict[str, object]]]:
    import uvicorn

    ran: list[dict[str, object]] = []
    monkeypatch.setattr(cli, "migrate", lambda: None)
    monkeypatch.setattr(uvicorn, "run", lambda *_args, **kwargs: ran.append(kwargs))
    get_settings.cache_clear()
    try:
        cli.main(["serve", "--port", "8123", *args])
    finally:
        get_settings.cache_clear()
    out, err = capsys.readouterr()
    return out, err, ran


LINE = (
    "caserne: RATE_LIMIT_STORAGE is memory://: each of the {n} processes counts the rate "
    "limits on its own, so a client gets up to {n}× each limit; to share the counts, set "
    "RATE_LIMIT_STORAGE=redis://host:6379/0 (README « PostgreSQL and several processes »)\n"
)


@pytest.mark.parametrize("workers", ["2", "4"])
def test_several_workers_counting_in_memory_are_told_once(
    workers: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("RATE_LIMIT_STORAGE", raising=False)
    out, err, ran = serve(monkeypatch, capsys, "--workers", workers)
    assert out == "Caserne: open http://127.0.0.1:8123/ (Ctrl+C stops it)\n"
    assert err == LINE.format(n=workers)
    assert ran[0]["workers"] == int(workers)


def test_web_concurrency_counts_as_workers(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("RATE_LIMIT_STORAGE", raising=False)
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    _out, err, ran = serve(monkeypatch, capsys)
    assert err == LINE.format(n=3)
    assert ran[0]["workers"] == 3


@pytest.mark.parametrize(
    ("workers", "storage"),
    [("1", "memory://"), ("2", "redis://127.0.0.1:6379/0"), ("4", "rediss://cache:6380/1")],
)
def test_one_process_or_shared_counts_say_nothing(
    workers: str,
    storage: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("RATE_LIMIT_STORAGE", storage)
    out, err, _ran = serve(monkeypatch, capsys, "--workers", workers)
    assert out == "Caserne: open http://127.0.0.1:8123/ (Ctrl+C stops it)\n"
    assert err == ""

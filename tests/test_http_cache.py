"""The rendered-share memory is bounded in bytes, not in entries (issue "Hardening", 2)."""

from app.http_cache import Memo


def test_memory_keeps_at_most_its_bytes_least_recently_used_out_first() -> None:
    memo = Memo(1000)
    memo.put("a", "x" * 400)
    memo.put("b", "y" * 400)
    assert memo.get("a") == "x" * 400  # "a" is now the most recently used
    memo.put("c", "z" * 400)
    assert memo.get("b") is None
    assert memo.get("a") is not None and memo.get("c") is not None
    assert memo.cache.currsize <= 1000


def test_a_value_heavier_than_the_memory_is_served_not_kept() -> None:
    memo = Memo(1000)
    memo.put("small", "s" * 10)
    memo.put("huge", "h" * 5000)
    assert memo.get("huge") is None
    assert memo.get("small") == "s" * 10


def test_many_heavy_pages_never_exceed_the_budget() -> None:
    memo = Memo(32 * 1024 * 1024)
    page = "p" * (2 * 1024 * 1024)  # a 2 MB share page
    for host in range(60):
        memo.put(("code", f"http://host{host}"), page)
    assert memo.cache.currsize <= 32 * 1024 * 1024
    assert len(memo.cache) == 16

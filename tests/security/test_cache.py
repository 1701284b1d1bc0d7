"""The byte-bounded LRU that the share page cache can use (issue 10, finding 2)."""

import pytest

from app.security.cache import ByteBoundedLRU


def test_it_holds_at_most_max_bytes() -> None:
    cache: ByteBoundedLRU[str, str] = ByteBoundedLRU(1000)
    for index in range(100):
        cache.put(f"k{index}", "x" * 200)
        assert cache.total <= 1000
    assert len(cache) == 5
    assert cache.total == sum(len(cache.get(f"k{i}") or "") for i in range(95, 100))


def test_the_least_recently_used_goes_first() -> None:
    cache: ByteBoundedLRU[str, bytes] = ByteBoundedLRU(300, max_item_fraction=1.0)
    cache.put("a", b"1" * 100)
    cache.put("b", b"2" * 100)
    cache.put("c", b"3" * 100)
    assert cache.get("a") == b"1" * 100  # a is now the most recent
    cache.put("d", b"4" * 100)
    assert "b" not in cache and {"a", "c", "d"} <= {k for k in "abcd" if k in cache}


def test_a_value_too_heavy_is_not_kept_and_evicts_nothing() -> None:
    cache: ByteBoundedLRU[str, str] = ByteBoundedLRU(1000)
    cache.put("small", "x" * 100)
    assert cache.put("huge", "y" * 251) is False
    assert "huge" not in cache and cache.get("small") == "x" * 100 and cache.total == 100


def test_replacing_a_key_reweighs_it() -> None:
    cache: ByteBoundedLRU[str, str] = ByteBoundedLRU(1000)
    cache.put("k", "x" * 200)
    cache.put("k", "x" * 10)
    assert cache.total == 10 and len(cache) == 1
    cache.put("k", "x" * 999)  # too heavy now: the old value goes too
    assert "k" not in cache and cache.total == 0


def test_custom_weight() -> None:
    cache: ByteBoundedLRU[str, str] = ByteBoundedLRU(100, weigh=lambda v: len(v.encode()))
    cache.put("é", "é" * 10)
    assert cache.total == 20


def test_the_share_page_attack_stays_bounded() -> None:
    """One 2 MB page under 60 Host values took a worker from 170 MB to 632 MB (count bound 256)."""
    cache: ByteBoundedLRU[tuple[str, str], str] = ByteBoundedLRU(32 * 1024 * 1024)
    page = "x" * 2_000_000
    for index in range(60):
        cache.put(("code", f"http://host{index}"), page)
    assert cache.total <= 32 * 1024 * 1024


def test_max_bytes_must_be_positive() -> None:
    with pytest.raises(ValueError):
        ByteBoundedLRU(0)

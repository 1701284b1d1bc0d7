"""The rendered-share memory is bounded in bytes, not in entries (issue "Hardening", 2)."""

import sys
import threading

from app.http_cache import Memo


def test_memory_keeps_at_most_its_bytes_least_recently_used_out_first() -> None:
    memo = Memo(1500)  # two entries of 400 bytes and their keys' overhead, not three
    memo.put("a", "x" * 400)
    memo.put("b", "y" * 400)
    assert memo.get("a") == "x" * 400  # "a" is now the most recently used
    memo.put("c", "z" * 400)
    assert memo.get("b") is None
    assert memo.get("a") is not None and memo.get("c") is not None
    assert memo.cache.currsize <= 1500


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
    # 16 pages of 2 MiB would be exactly 32 MiB: with each entry's key and bookkeeping
    # counted, 15 fit.
    assert len(memo.cache) == 15


def test_the_memory_counts_bytes_not_characters() -> None:
    """Issue 13, finding 5: `len()` of a str counted an emoji page at a quarter of what it
    holds (CPython stores such a string 4 bytes a character)."""
    memo: Memo[str] = Memo(10_000)
    memo.put("emoji", "⚔" * 100 + "🛡️" * 2_000)  # 4,100 characters, over 16 KB in memory
    assert memo.get("emoji") is None
    memo.put("ascii", "a" * 4_100)
    assert memo.get("ascii") == "a" * 4_100
    assert 4_100 < memo.cache.currsize < 4_100 + 400


def test_bytes_weigh_what_they_are_and_small_entries_count_their_keys() -> None:
    memo: Memo[bytes] = Memo(100_000)
    page = "🛡️".encode() * 1_000  # 7,000 bytes of UTF-8
    memo.put(("code", "http://localhost"), page)
    assert memo.get(("code", "http://localhost")) == page
    assert 7_000 < memo.cache.currsize < 7_400
    for port in range(10_000):  # tiny values cannot multiply past the budget either
        memo.put(("code", f"http://localhost:{port}"), b"x")
    assert memo.cache.currsize <= 100_000
    assert len(memo.cache) < 400


def test_with_a_doorkeeper_a_value_is_kept_at_its_second_put() -> None:
    """The calculators' answer memory keeps a body's answer from its second sight on: a
    stream of lists each sent once neither pays for keeping them nor pushes out the answers
    of bodies that come back (issue 29)."""
    memo: Memo[bytes] = Memo(10_000, second_sight=2)
    memo.put("kept", b"K")
    memo.put("kept", b"K")
    assert memo.get("kept") == b"K"
    for once in ("a", "b", "c"):  # seen once each: none kept, "kept" stays
        memo.put(once, b"x" * 500)
        assert memo.get(once) is None
    assert memo.get("kept") == b"K"
    memo.put("a", b"x")  # "a" was forgotten by the doorkeeper (two keys at most): first again
    assert memo.get("a") is None
    memo.put("c", b"C")  # "c" is still remembered: kept now
    assert memo.get("c") == b"C"


def test_a_doorkeeper_remembers_at_most_its_keys() -> None:
    memo: Memo[str] = Memo(10_000, second_sight=3)
    for key in "abcd":  # "a" forgotten at "d"
        memo.put(key, key.upper())
    assert [memo.get(key) for key in "abcd"] == [None] * 4
    for key in "bcda":
        memo.put(key, key.upper())
    assert [memo.get(key) for key in "bcda"] == ["B", "C", "D", None]
    assert memo.seen_once is not None
    assert list(memo.seen_once) == ["a"]  # the three kept were forgotten, "a" is held


def test_a_doorkeeper_shared_by_threads_stays_within_its_bound() -> None:
    """Threads putting at once never grow what it remembers past its bound (a review found
    a lock-free version growing by one key whenever two threads forgot the same oldest key:
    104 keys for a bound of 64 after 800,000 keys from 4 threads)."""
    memo: Memo[str] = Memo(10_000, second_sight=64)
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch as often as they can
    try:
        threads = [
            threading.Thread(target=lambda t=t: [memo.put((t, i), "v") for i in range(50_000)])
            for t in range(4)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    assert memo.seen_once is not None and len(memo.seen_once) <= 64
    assert memo.cache.currsize == 0  # every key put once: nothing kept

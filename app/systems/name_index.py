"""Names as players type them: « 3 x jaffas », « Teal c », « Gardes de Brumeval ».

`NameIndex` finds the catalogue name a typed one means, forgiving case, accents, plurals,
punctuation, small misspellings (« Jafa ») and extra words (« Jaffa de base »), and gives
the closest names when it cannot tell. difflib (the standard library) measures how close
two words are: catalogues hold a few dozen names, so nothing faster is needed, and every
comparison is bounded (names cut to `MAX_NAME` characters, word pairs remembered).
"""

import difflib
import re
import threading
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, Protocol

from cachetools import LRUCache

# What a typed name is cut to before it is compared (a catalogue name is 80 at most).
MAX_NAME = 120
# How close two words must be to be the same word misspelled (difflib's ratio).
WORD_RATIO = 0.8
# Below this, two words count as unlike (they weigh nothing among the closest names).
WORD_FLOOR = 0.6
# How close a whole name must be, when no name's words are all found.
NAME_RATIO = 0.82
# Below this, a name is not offered as a candidate at all.
CANDIDATE_RATIO = 0.45

# Words that tell nothing apart: « Jaffa avec canon lourd » is « jaffa canon lourd ».
STOPWORDS = frozenset(
    [
        "a",
        "au",
        "aux",
        "avec",
        "d",
        "de",
        "des",
        "du",
        "en",
        "et",
        "l",
        "la",
        "le",
        "les",
        "pour",
        "sur",
        "un",
        "une",
        "the",
        "of",
        "and",
        "with",
    ]
)
_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'", "´": "'", "ʼ": "'"})
_LIGATURES = {"œ": "oe", "æ": "ae", "ß": "ss"}
_NOT_WORD = re.compile(r"[^0-9a-z]+")
_SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """Lower case, no accents, one kind of apostrophe, single spaces: « Écorcheur  des
    Marais » → « ecorcheur des marais »."""
    text = text.translate(_APOSTROPHES).lower()
    for ligature, letters in _LIGATURES.items():
        text = text.replace(ligature, letters)
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _SPACES.sub(" ", plain).strip()


def singular(word: str) -> str:
    """A word without its French (or English) plural: gardes → garde, chevaux → cheval."""
    if len(word) > 4 and word.endswith("aux"):
        return word[:-3] + "al"
    if len(word) > 3 and word.endswith(("s", "x")) and not word.endswith(("ss", "us")):
        return word[:-1]
    return word


def words(text: str) -> tuple[str, ...]:
    """The words that name something: folded, singular, without stopwords or punctuation."""
    found = _NOT_WORD.sub(" ", fold(text[:MAX_NAME])).split()
    kept = tuple(singular(word) for word in found if word not in STOPWORDS)
    return kept or tuple(found)


@lru_cache(maxsize=8192)
def _similar(typed: str, known: str) -> float:
    """How close two words are, 0 to 1 (remembered: a list repeats its words)."""
    if typed == known:
        return 1.0
    if min(len(typed), len(known)) < 4 or abs(len(typed) - len(known)) > 2:
        return 0.0
    matcher = difflib.SequenceMatcher(None, typed, known)
    if matcher.quick_ratio() < WORD_FLOOR:  # an upper bound, ten times cheaper
        return 0.0
    return matcher.ratio()


@dataclass(frozen=True, eq=False)
class Named:
    """A name a player may type for something of the catalogue, and the document entry it
    makes (count 1). `id` is what the API and the page send back to choose it."""

    id: str
    name: str
    entry: Mapping[str, Any]
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Match:
    named: Named
    how: Literal["exact", "close", "chosen"]


class NameIndex:
    """Every name of a system's catalogue, to find what a typed name means."""

    def __init__(self, items: Iterable[Named]) -> None:
        self.items = list(items)
        self.by_id = {named.id: named for named in self.items}
        self._found: LRUCache[tuple[str, ...], Match | None] = LRUCache(maxsize=2048)
        self._lock = threading.Lock()
        self._keys: list[tuple[tuple[str, ...], Named]] = []
        self._exact: dict[tuple[str, ...], list[Named]] = {}
        for named in self.items:
            for name in (named.name, *named.aliases):
                key = words(name)
                self._keys.append((key, named))
                found = self._exact.setdefault(key, [])
                if named not in found:
                    found.append(named)

    def find(self, typed: str) -> Match | None:
        """What `typed` names: the same words (exact), or one name whose every word is in
        it, maybe misspelled (close); None when nothing or several names fit as well.
        Remembered by words (a pasted list repeats its lines)."""
        key = words(typed)
        if not key:
            return None
        with self._lock:
            if key in self._found:
                return self._found[key]
        found = self._find(key)
        with self._lock:
            self._found[key] = found
        return found

    def _find(self, key: tuple[str, ...]) -> Match | None:
        exact = self._exact.get(key, [])
        if len(exact) == 1:
            return Match(exact[0], "exact")
        if exact:
            return None
        best = self._contained(key)
        if best is not None:
            return Match(best, "close")
        scored = sorted(
            ((self._ratio(key, known, NAME_RATIO), named) for known, named in self._keys),
            key=lambda pair: -pair[0],
        )
        if scored and scored[0][0] >= NAME_RATIO:
            top = [named for score, named in scored if score == scored[0][0]]
            if len({named.id for named in top}) == 1:
                return Match(top[0], "close")
        return None

    def _contained(self, key: tuple[str, ...]) -> Named | None:
        """The name with the most words all found in `key` (each as typed or misspelled);
        None when two different names tie."""
        best: tuple[int, float] = (0, 0.0)
        found: list[Named] = []
        for known, named in self._keys:
            score = 0.0
            for word in known:
                closest = max((_similar(typed, word) for typed in key), default=0.0)
                if closest < WORD_RATIO:
                    break
                score += closest
            else:
                rank = (len(known), score)
                if rank > best:
                    best, found = rank, [named]
                elif rank == best and named not in found:
                    found.append(named)
        return found[0] if len({named.id for named in found}) == 1 else None

    @staticmethod
    def _ratio(typed: tuple[str, ...], known: tuple[str, ...], floor: float) -> float:
        """How close two names are (difflib's ratio), or 0 when it is surely below `floor`
        (its cheap upper bounds first: a full ratio costs a hundred times more)."""
        matcher = difflib.SequenceMatcher(None, " ".join(typed), " ".join(known))
        if matcher.real_quick_ratio() < floor or matcher.quick_ratio() < floor:
            return 0.0
        return matcher.ratio()

    def closest(self, typed: str, limit: int = 3) -> list[Named]:
        """The names closest to `typed`, closest first (at most `limit`)."""
        key = words(typed)
        if not key:
            return []
        scores: dict[str, float] = {}
        for known, named in self._keys:
            shared = sum(max((_similar(t, w) for t in key), default=0.0) for w in known)
            words_score = shared / max(len(known), len(key))
            score = max(self._ratio(key, known, max(CANDIDATE_RATIO, words_score)), words_score)
            if score >= CANDIDATE_RATIO and score > scores.get(named.id, 0.0):
                scores[named.id] = score
        ranked = sorted(scores, key=lambda named_id: -scores[named_id])
        return [self.by_id[named_id] for named_id in ranked[:limit]]


def entry_of(named: Named, count: int, **more: Any) -> dict[str, Any]:
    """The entry a name makes, for `count` figures (and any field `more` sets)."""
    return {**named.entry, "count": count, **more}


class HasName(Protocol):
    @property
    def id(self) -> str: ...
    @property
    def name(self) -> str: ...


def by_names(items: Iterable[HasName]) -> list[Named]:
    """Catalogue items by their names, each the entry naming it (`{"unit": id}`)."""
    return [Named(item.id, item.name, {"unit": item.id}) for item in items]


def unique_names(items: Sequence[Named]) -> list[Named]:
    """`items` without a second item of the same id (the first kept)."""
    seen: set[str] = set()
    out = []
    for named in items:
        if named.id not in seen:
            seen.add(named.id)
            out.append(named)
    return out

"""Where a secret can appear in a URL: the `t` query parameter (an edit token, a carnet's
key) or a campaign's join `code`, however it is spelled."""

import re
from functools import lru_cache
from urllib.parse import unquote_plus

# Query parameter names that carry a secret. The app reads `t` (edit tokens, carnet keys)
# and `code` (a campaign's join code, /c/{id}/rejoindre?code=); the others are masked and
# given no-referrer too, in case a client or a future route uses them.
SECRET_PARAMETERS = frozenset({"t", "code", "token", "edit_token", "access_token"})

# A name=value pair in a query string or in a logged URL, with the separators and the `=`
# possibly percent-encoded (a path with %3F, `t%3D...`): the value runs to the next
# separator, space or quote. A name never runs over an encoded separator (%26, %3B, %3F):
# each lead's scan then stops at the next one, and a query is read in linear time (a name
# that could run over them made `?` + `%26` x 5,300 cost seconds, issue 13).
_PAIR = re.compile(
    r"(?P<lead>^|[?&;]|%3[Ff]|%26|%3[Bb])"
    r"(?P<name>(?:[A-Za-z0-9_.~+\-]|%(?!26|3[BbFf])[0-9A-Fa-f]{2})+?)"
    r"(?P<eq>=|%3[Dd]|%253[Dd])"
    r"(?P<value>(?:(?!%26|%3[Bb])[^&;\s\"'])*)"
)


def decoded(text: str, rounds: int = 3) -> str:
    """`text` percent-decoded until it no longer changes (double encoding included)."""
    for _ in range(rounds):
        plain = unquote_plus(text)
        if plain == text:
            break
        text = plain
    return text


@lru_cache(maxsize=512)
def is_secret_name(name: str) -> bool:
    return decoded(name).strip().lower() in SECRET_PARAMETERS


def has_equals(text: str) -> bool:
    """Whether `text` holds an `=`, plain, encoded or encoded twice (`%253D`, which the pair
    pattern reads too): without one there is no pair to read (a cheap test that spares the
    pattern most hostile queries)."""
    return "=" in text or "%3d" in text or "%3D" in text or "%253d" in text or "%253D" in text


def mask_secrets(text: str, mask: str = "[masqué]") -> str:
    """`text` with the value of every secret parameter replaced by `mask`."""
    if not has_equals(text):
        return text

    def replace(match: re.Match[str]) -> str:
        if not is_secret_name(match["name"]):
            return match[0]
        return f"{match['lead']}{match['name']}{match['eq']}{mask}"

    return _PAIR.sub(replace, text)


def carries_secret(query_string: bytes) -> bool:
    """Whether a raw query string holds a secret parameter (Referrer-Policy: no-referrer)."""
    if not query_string:
        return False
    text = query_string.decode("latin-1")
    if not has_equals(text):
        return False
    return any(is_secret_name(match["name"]) for match in _PAIR.finditer("?" + text))

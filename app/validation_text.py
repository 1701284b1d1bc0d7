"""Pydantic's refusals in the players' language: what the pages and the engines' issues
say when a value does not fit (the JSON API's 422 details keep pydantic's own words)."""

from typing import Any

__all__ = ["FRENCH", "RANGE_ERRORS", "french_message"]

RANGE_ERRORS = {"int_parsing", "int_type", "greater_than_equal", "less_than_equal", "missing"}

FRENCH = {
    "int_parsing": "nombre entier attendu",
    "int_type": "nombre entier attendu",
    "int_from_float": "nombre entier attendu",
    "greater_than_equal": "valeur trop petite",
    "less_than_equal": "valeur trop grande",
    "literal_error": "valeur inconnue",
    "value_error": "valeur incorrecte",
    "missing": "champ obligatoire",
    "string_too_long": "texte trop long",
    "string_pattern_mismatch": "caractère interdit",
    "too_long": "trop d'éléments",
    "list_type": "liste attendue",
    "unknown_id": "inconnu du catalogue",
    "float_parsing": "nombre attendu",
    "float_type": "nombre attendu",
    "decimal_parsing": "nombre attendu",
    "string_type": "texte attendu",
    "bool_type": "oui ou non attendu",
    "bool_parsing": "oui ou non attendu",
    "dict_type": "objet attendu",
    "model_type": "objet attendu",
    "extra_forbidden": "champ inconnu",
    # Free JSON's refusals (app/systems/inputs.py, free_json_refusal).
    "json_too_deep": "imbrication trop profonde",
    "finite_number": "nombre fini attendu",
    "int_too_large": "nombre trop grand",
    "invalid_text": "caractère invalide",
}


def french_message(
    kind: str, english: str, ctx: dict[str, Any], bounds: tuple[int, int] | None = None
) -> str:
    """One refusal in French: its bounds when a field has them, else its kind's words
    (pydantic's English only for a kind not listed)."""
    if kind in RANGE_ERRORS and bounds is not None:
        return f"nombre entier entre {bounds[0]} et {bounds[1]}"
    if kind == "greater_than_equal" and "ge" in ctx:
        return f"au moins {ctx['ge']}"
    if kind == "less_than_equal" and "le" in ctx:
        return f"au plus {ctx['le']}"
    if kind == "string_too_long" and "max_length" in ctx:
        return f"{ctx['max_length']} caractères au plus"
    return FRENCH.get(kind, english)

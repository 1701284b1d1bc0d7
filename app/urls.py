"""Absolute URLs for share links and exports."""

from fastapi import Request


def public_base(request: Request) -> str:
    """PUBLIC_URL when set (recommended behind a proxy), else the request's own origin."""
    configured: str = request.app.state.settings.public_url
    return configured.rstrip("/") if configured else str(request.base_url).rstrip("/")

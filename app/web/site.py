"""The site's own files and probes, outside the pages: the API's Swagger UI, the service
worker and the web app manifest (issue 18), and the liveness probe."""

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response

from app.settings import ROOT

router = APIRouter(include_in_schema=False)

# The installable web app (issue 18): read once; a deploy restarts the processes.
SERVICE_WORKER = (ROOT / "static" / "sw.js").read_bytes()
MANIFEST = (ROOT / "static" / "manifest.webmanifest").read_bytes()


def accessible_docs(page: str) -> str:
    """FastAPI's Swagger UI page with its language (its texts are English)."""
    return page.replace("<html>", '<html lang="en">', 1)


@router.get("/api/docs", include_in_schema=False)
async def api_docs(request: Request) -> HTMLResponse:
    """Swagger UI over /openapi.json, its assets vendored in static/swagger-ui/."""
    page = get_swagger_ui_html(
        openapi_url=request.app.openapi_url or "/openapi.json",
        title="Caserne — API",
        swagger_js_url="/static/swagger-ui/swagger-ui-bundle.js",
        swagger_css_url="/static/swagger-ui/swagger-ui.css",
        swagger_favicon_url="/static/favicon.svg",
    )
    return HTMLResponse(accessible_docs(bytes(page.body).decode()))


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    """The service worker from the root, so that its scope is the whole site."""
    return Response(
        SERVICE_WORKER,
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/manifest.webmanifest", include_in_schema=False)
async def manifest() -> Response:
    return Response(
        MANIFEST, media_type="application/manifest+json", headers={"Cache-Control": "no-cache"}
    )


@router.get("/healthz", include_in_schema=False)
async def healthz() -> JSONResponse:
    """Liveness for proxies and containers; also the benchmark's ceiling of the stack."""
    return JSONResponse({"status": "ok"})

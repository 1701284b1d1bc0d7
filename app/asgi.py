"""The ASGI application for uvicorn: `uvicorn app.asgi:app`."""

from app.main import create_app, settle_heap

app = create_app()
# The OpenAPI document is built here, while uvicorn starts and before it accepts a
# connection: ~0.9 s of CPU (3.6 s seen on a busy machine) that the first visitor of
# /api/docs or /openapi.json used to wait for (issue 19). It is then served from memory.
app.openapi()
settle_heap()

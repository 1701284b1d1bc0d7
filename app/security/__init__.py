"""What stands between the network and the routes: hosts, CSRF, rate limits, headers.

Each module is a pure ASGI middleware (or a helper of one), so the routers need no change;
`app/main.py` stacks them, outermost last.
"""

"""What the browser flows share: waiting for HTMX, and proving a page did not navigate."""

import re
from collections.abc import Callable
from urllib.parse import urlsplit

from playwright.sync_api import Locator, Page, Response

# Counts the HTMX requests in flight (add it with `page.add_init_script`).
TRACK_HTMX = """
window.__htmxPending = 0;
document.addEventListener("htmx:beforeRequest", () => { window.__htmxPending += 1; });
document.addEventListener("htmx:afterRequest", () => { window.__htmxPending -= 1; });
"""


def mark_document(page: Page) -> None:
    """Marks the current document: a navigation would lose the mark."""
    page.evaluate("window.__sameDocument = true")


def assert_same_document(page: Page) -> None:
    assert page.evaluate("window.__sameDocument === true"), "the page navigated"


def htmx_post(page: Page, path: str, action: Callable[[], object]) -> Response:
    """Runs `action`, waits for the HTMX POST to `path` it causes, then for HTMX to be idle."""

    def matches(response: Response) -> bool:
        request = response.request
        return request.method == "POST" and urlsplit(response.url).path == path

    with page.expect_response(matches) as info:
        action()
    response = info.value
    assert response.request.header_value("hx-request") == "true"
    page.wait_for_function("() => window.__htmxPending === 0")
    return response


def type_and_leave(field: Locator, text: str) -> None:
    """Types into a field, then tabs out of it, which fires its `change` event."""
    field.fill(text)
    field.press("Tab")


def open_new_list(page: Page, system: str, example: str | None = None) -> str:
    """Creates a list as the home page's buttons do (a form posted from one of the site's
    pages, so this context keeps its edit cookie), and returns its editor's path."""
    if not page.url.startswith("http"):
        page.goto("/listes")
    fields = {"system": system} | ({"example": example} if example else {})
    page.evaluate(
        """(fields) => {
          const form = document.createElement("form");
          form.method = "post";
          form.action = "/listes";
          for (const [name, value] of Object.entries(fields)) {
            const input = document.createElement("input");
            input.type = "hidden";
            input.name = name;
            input.value = value;
            form.append(input);
          }
          document.body.append(form);
          form.submit();
        }""",
        fields,
    )
    page.wait_for_url(re.compile(r"/r/[A-Za-z0-9_-]+$"))
    return urlsplit(page.url).path

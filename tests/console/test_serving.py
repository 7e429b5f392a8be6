"""How the console is served: from the installed package, under strict security headers, with no
inline script or style and nothing from another origin."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from importlib import resources

import pytest

from tests.console.harness import ConsoleSession, Server

FILES = {"index.html": "text/html", "console.js": "text/javascript", "console.css": "text/css"}


def test_the_files_ship_inside_the_package() -> None:
    static = resources.files("jarvis.console").joinpath("static")
    assert sorted(p.name for p in static.iterdir()) == sorted(FILES)


@pytest.mark.parametrize(
    "path", ["/console/", "/console/console.js", "/console/console.css", "/console/nope.js"]
)
def test_every_console_response_carries_the_security_headers(server: Server, path: str) -> None:
    status, headers, _body = server.fetch(path)
    assert status == (404 if "nope" in path else 200)
    csp = dict(part.strip().split(" ", 1) for part in headers["content-security-policy"].split(";"))
    assert csp["default-src"] == "'none'"
    assert csp["script-src"] == csp["style-src"] == csp["connect-src"] == csp["img-src"] == "'self'"
    assert csp["frame-ancestors"] == csp["form-action"] == csp["base-uri"] == "'none'"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["x-frame-options"] == "DENY"
    assert headers["referrer-policy"] == "no-referrer"
    assert "set-cookie" not in headers


def test_content_types_and_the_bare_path_redirects(server: Server) -> None:
    for name, media_type in FILES.items():
        status, headers, _body = server.fetch(f"/console/{name}")
        assert status == 200 and headers["content-type"].startswith(media_type)
    status, headers, _body = server.fetch("/console")
    assert status == 307 and headers["location"].endswith("/console/")
    assert server.fetch("/console/../jarvis/config.py")[0] == 404


class _Inline(HTMLParser):
    """Collects what a strict CSP would block: inline scripts, style attributes and elements, event
    handler attributes, and any URL that is not relative to the console."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script" and "src" not in names or tag == "style":
            self.problems.append(f"inline <{tag}>")
        self.problems += [f"{tag} {name}=" for name in names if name == "style" or name.startswith("on")]
        for name in ("src", "href"):
            url = names.get(name) or ""
            if re.match(r"^(?:[a-z]+:|//)", url):
                self.problems.append(f"{tag} {name}={url}")


def test_the_page_has_no_inline_script_style_or_foreign_url(server: Server) -> None:
    parser = _Inline()
    parser.feed(server.fetch("/console/")[2].decode())
    assert parser.problems == []
    script = server.fetch("/console/console.js")[2].decode()
    assert "innerHTML" not in script and "eval(" not in script and "localStorage" not in script


def test_a_signed_in_session_only_ever_talks_to_its_own_origin(server: Server, tab: ConsoleSession) -> None:
    tab.sign_in(server.clinician("dr-origin"))
    tab.ask("Hyponatraemia 118, how fast to correct?", "00444001")
    paths = {re.sub(r"^http://127\.0\.0\.1:\d+", "", url) for url in tab.requests}
    assert paths == {"/console/", "/console/console.js", "/console/console.css", "/v1/whoami", "/v1/ask"}
    assert tab.blocked == [] and tab.errors == []

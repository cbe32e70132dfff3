"""A real browser for the page tests: headless Chromium through Playwright.

``launched()`` is the browser (the ``browser`` fixture of conftest.py): without Chromium
or Playwright the test is skipped, except under CI (env CI set), where that is a failure:
CI installs both. ``browser_tab()`` is a fresh tab that may reach only the server.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # launched() skips (or fails under CI) with the reason
    expect = sync_playwright = None

__all__ = ["ZONE", "artifacts_folder", "browser_tab", "expect", "launched"]

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ZONE = "Asia/Shanghai"


def _chromium() -> str | None:
    if Path("/usr/bin/chromium").exists():
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what}; CI must provide it (apt-get install chromium, "
                    f"pip install playwright) for the page tests", pytrace=False)
    pytest.skip(f"{what}: the page tests need a real browser")


@contextmanager
def launched() -> Iterator[Any]:
    if sync_playwright is None:
        _missing("the playwright package is not installed")
    path = _chromium()
    if path is None:
        _missing("chromium is not installed (looked for /usr/bin/chromium and on PATH)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def artifacts_folder() -> Path:
    """Screenshots go to $CHRONORAG_ARTIFACTS, else tests/serve/artifacts/."""
    folder = Path(os.environ.get("CHRONORAG_ARTIFACTS") or Path(__file__).parent / "artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@contextmanager
def browser_tab(browser: Any, url: str) -> Iterator[Any]:
    """A fresh 1280x800 tab in Asia/Shanghai. It may reach only the server at ``url``
    (the page must work offline: no CDN, no web font); uncaught script errors fail."""
    context = browser.new_context(viewport={"width": 1280, "height": 800},
                                  timezone_id=ZONE, locale="en-US")
    outside: list[str] = []
    errors: list[str] = []

    def only_the_server(route: Any) -> None:
        if route.request.url.startswith(url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_server)
    tab = context.new_page()
    tab.set_default_timeout(20_000)
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield tab
    finally:
        context.close()
    assert not errors, f"uncaught errors in the page: {errors}"
    assert not outside, f"the page requested outside the server: {outside}"

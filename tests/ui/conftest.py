"""What the browser test needs: Chromium, a JupyterLab of its own on a free port, a page.

JupyterLab runs on 127.0.0.1 with a random token, in a temporary root folder that holds copies
of the notebooks (the repository's notebooks and workspace/ are never opened), with its own
config, data and runtime folders. It is shut down, its whole process group, even when a check
fails. Without Chromium or Playwright the tests fail and say how to install them.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Iterator

import pytest

from tests.servers import jupyterlab

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
SCREENSHOTS = ROOT / "build" / "ui-screenshots"
NOTEBOOKS = {"00_welcome.ipynb": ROOT / "solutions" / "00_welcome.ipynb",
             "widgets.ipynb": ROOT / "tests" / "ui" / "widgets.ipynb"}

SETTINGS = {  # this JupyterLab's own user settings
    "notebook-extension/tracker": '{"windowingMode": "none"}',  # every cell in the page, not only those in view
    "docmanager-extension/plugin": '{"autoStartDefaultKernel": true}',  # no kernel dialog
    "apputils-extension/notification": '{"fetchNews": "false"}',  # no news toast (and no network)
}


@pytest.fixture(scope="session")
def chromium() -> Path:
    """The system Chromium (Debian's `chromium` package); the test fails, saying how, without it."""
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium is missing ({CHROMIUM} does not exist): the browser test drives the "
                    "system Chromium. Install it with `apt-get install -y chromium` (as root, or with "
                    "sudo), then run `make test-ui` again.", pytrace=False)
    return CHROMIUM


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory, chromium: Path) -> Iterator[tuple[str, str]]:
    """(base URL, token) of the course's JupyterLab (`make lab`: solutions.course.lab) over a copy
    of the repository's layout: NOTEBOOKS in workspace/, the reference package in solutions/;
    stopped at the end."""
    home = tmp_path_factory.mktemp("lab")
    root = home / "root"
    (root / "workspace").mkdir(parents=True)
    for name, source in NOTEBOOKS.items():
        shutil.copyfile(source, root / "workspace" / name)
    shutil.copytree(ROOT / "solutions", root / "solutions",
                    ignore=shutil.ignore_patterns("__pycache__", "*.ipynb"))
    for plugin, value in SETTINGS.items():
        path = home / "settings" / "@jupyterlab" / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(value)
    with jupyterlab("solutions.course.lab", home, root,
                    "--LabApp.expose_app_in_browser=True") as served:  # window.jupyterapp, read by the tests
        yield served


def playwright_api() -> object:
    """Playwright's sync API; the test fails, saying how to install it, without it."""
    try:
        from playwright import sync_api
    except ImportError:
        pytest.fail("Playwright is missing: `make test-ui` installs it (pip install -e '.[ui]').",
                    pytrace=False)
    return sync_api


@pytest.fixture(scope="session")
def expect() -> object:
    """Playwright's `expect`: assertions that wait (5 s unless told) for the page to agree."""
    return playwright_api().expect


@pytest.fixture(scope="session")
def browser(chromium: Path) -> Iterator[object]:
    """Headless Chromium driven by Playwright (the system browser: nothing is downloaded)."""
    with playwright_api().sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(chromium), headless=True)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture()
def page(browser: object) -> Iterator[object]:
    """A fresh browser page, 1400 x 1000 pixels."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture(scope="session")
def screenshots() -> Path:
    """The git-ignored folder the screenshots go to."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS

"""A real server process with a small conversation in it, and a headless Chromium to drive."""

import json
import shutil
from pathlib import Path

import httpx
import pytest

from simplemem_graph.memory import SAMPLE_CONVERSATION
from tests.serve_process import serve


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """tests/artifacts/ (git-ignored): screenshots for a person to look at."""
    path = Path(__file__).resolve().parents[1] / "artifacts"
    path.mkdir(exist_ok=True)
    return path


@pytest.fixture(scope="session")
def inspector_url(tmp_path_factory):
    """`simplemem-graph serve` on loopback (no keys), namespace `acme` holding the sample conversation."""
    store = tmp_path_factory.mktemp("inspector") / "inspector.db"
    with serve(store) as base:
        turns = [
            json.loads(line) for line in SAMPLE_CONVERSATION.read_text(encoding="utf-8").splitlines() if line
        ]
        added = httpx.post(f"{base}/v1/namespaces/acme/turns", json=turns, timeout=300)
        assert added.status_code == 201, added.text
        yield base


@pytest.fixture(scope="session")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    assert chromium and driver_path, (
        "install chromium and chromium-driver (apt-get install chromium chromium-driver)"
    )
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1500,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    yield driver
    driver.quit()

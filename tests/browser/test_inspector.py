"""The web graph inspector in a real headless Chromium against a real server process."""

import math

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

pytestmark = pytest.mark.browser


def test_search_draws_the_neighbourhood_and_a_click_shows_details(inspector_url, browser, artifacts_dir):
    wait = WebDriverWait(browser, 60)
    browser.get(f"{inspector_url}/")  # redirects to /inspector/
    wait.until(lambda d: [o.text for o in Select(d.find_element(By.ID, "ns-select")).options] == ["acme"])

    browser.find_element(By.ID, "query").send_keys("When is the Northwind quote due?")
    browser.find_element(By.ID, "search-btn").click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "status"), "nodes"))

    results = browser.find_elements(By.CSS_SELECTOR, "#results li")
    circles = browser.find_elements(By.CSS_SELECTOR, "#graph circle.node")
    edges = browser.find_elements(By.CSS_SELECTOR, "#graph line.edge")
    assert 1 <= len(results) <= 5
    assert len(circles) > len(results) and edges
    kinds = {c.get_attribute("data-kind") for c in circles}
    assert {"event", "entity"} <= kinds
    assert "Northwind" in browser.find_element(By.ID, "results").text

    # Wait for the force layout to come to rest (two identical readings), so clicks land on nodes.
    readings = [None]

    def layout_at_rest(driver) -> bool:
        script = "return [...document.querySelectorAll('#nodes .node-group')].map(g => g.transform.baseVal"
        positions = driver.execute_script(script + ".consolidate()?.matrix).map(m => m && [m.e, m.f])")
        at_rest = positions == readings[-1]
        readings.append(positions)
        return at_rest

    WebDriverWait(browser, 60, poll_frequency=0.5).until(layout_at_rest)
    assert readings[-1] and all(p is not None and all(map(math.isfinite, p)) for p in readings[-1])

    seed = browser.find_element(By.CSS_SELECTOR, "#graph .seed circle.node")
    seed_id = seed.get_attribute("data-id")
    seed.click()
    wait.until(EC.text_to_be_present_in_element((By.ID, "details"), seed_id))
    details = browser.find_element(By.ID, "details")
    terms = [dt.text for dt in details.find_elements(By.CSS_SELECTOR, "#props dt")]
    assert {"id", "text", "time", "source_ids"} <= set(terms)
    source_turns = details.find_elements(By.CSS_SELECTOR, "#source-turns li")
    assert source_turns and all(li.text.strip() for li in source_turns)
    assert "selected" in seed.find_element(By.XPATH, "..").get_attribute("class")
    browser.save_screenshot(str(artifacts_dir / "inspector.png"))  # the event and its source turns

    entity = browser.find_element(By.CSS_SELECTOR, "#graph circle.node[data-kind='entity']")
    entity.click()
    wait.until(EC.text_to_be_present_in_element((By.CSS_SELECTOR, "#details h2"), "entity:"))
    assert "type" in [dt.text for dt in details.find_elements(By.CSS_SELECTOR, "#props dt")]


def test_patterns_with_evidence_and_open_questions_are_shown(inspector_url, browser):
    import httpx

    turns = [
        {
            "id": f"w:{i}",
            "session": "w",
            "time": f"2026-03-{2 + 7 * i:02d}T09:00:00+00:00",
            "speaker": "Dana",
            "text": "Tomas Brenner met Orsk Holdings for the weekly review",
        }
        for i in range(4)
    ] + [
        {
            "id": "q:1",
            "session": "q",
            "time": "2026-03-30T10:00:00+00:00",
            "speaker": "Dana",
            "text": "We need to meet Orsk Holdings",
        }
    ]
    assert (
        httpx.post(f"{inspector_url}/v1/namespaces/higher/turns", json=turns, timeout=300).status_code == 201
    )
    assert httpx.post(f"{inspector_url}/v1/namespaces/higher/consolidate", timeout=300).status_code == 200
    wait = WebDriverWait(browser, 60)
    browser.get(f"{inspector_url}/inspector/?ns=higher")
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#patterns li.pattern")))
    patterns = browser.find_elements(By.CSS_SELECTOR, "#patterns li.pattern")
    [pattern] = [p for p in patterns if "usually on Mondays" in p.text]
    pattern.find_element(By.TAG_NAME, "summary").click()
    evidence = pattern.find_elements(By.CSS_SELECTOR, ".evidence li")
    assert len(evidence) == 4 and all("Tomas Brenner met Orsk Holdings" in li.text for li in evidence)
    wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, "#questions li.question")))
    slots = {
        li.get_attribute("data-slot")
        for li in browser.find_elements(By.CSS_SELECTOR, "#questions li.question")
    }
    assert slots == {"time", "place"}
    assert "When is the meeting?" in browser.find_element(By.ID, "questions").text

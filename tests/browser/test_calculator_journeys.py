"""A person on a calculator page: type, drag, share the link, make a mistake."""

import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def query(url: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(url).query).items()}


def chart_point(page, trace: int):
    return page.evaluate(
        f"() => {{ const d = document.getElementById('chart-0').data[{trace}]; return [d.x[0], d.y[0]]; }}"
    )


def test_typing_a_value_recomputes_the_steps_the_chart_and_the_address(page):
    page.goto("/calculators/kv-capacity/")
    expect(page.locator("#results")).to_contain_text("= 160 KiB per token")
    page.wait_for_function("() => document.getElementById('chart-0').data !== undefined")
    assert chart_point(page, 3) == [4096, 14.4]

    page.fill("#id_kv_bytes", "1")
    expect(page.locator("#results")).to_contain_text("= 81,920 bytes = 80 KiB per token")
    expect(page.locator(".headlines")).to_contain_text("28")
    expect(page).to_have_url(re.compile(r"kv_bytes=1(&|$)"))
    page.wait_for_function("() => document.getElementById('chart-0').data[3].y[0] === 28.8")
    assert page.problems == []


def test_dragging_a_slider_moves_its_number_box_and_the_result_and_the_link_reopens_it(page, browser, live_server):
    page.goto("/calculators/kv-capacity/")
    slider = page.locator('input[type=range][data-for="id_context_tokens"]')
    expect(slider).to_be_visible()
    box = slider.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.42, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.7, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()

    page.wait_for_function("() => document.getElementById('id_context_tokens').value !== '4096'")
    dragged = int(page.input_value("#id_context_tokens"))
    assert dragged > 4096
    expect(page).to_have_url(re.compile(rf"context_tokens={dragged}(&|$)"))
    expect(page.locator("#results")).to_contain_text(f"One user at {dragged:,} tokens of context")
    steps = page.inner_text("#results .steps")

    shared = browser.new_page()
    shared.goto(page.url)
    assert shared.input_value("#id_context_tokens") == str(dragged)
    assert shared.inner_text("#results .steps") == steps
    assert query(shared.url) == query(page.url)
    shared.close()
    assert page.problems == []


def test_a_wrong_value_shows_its_message_beside_the_field_and_the_last_result_stays(page):
    page.goto("/calculators/kv-capacity/?kv_bytes=1")
    before = page.inner_text("#results .steps")
    page.fill("#id_layers", "2000")
    expect(page.locator("#err_layers")).to_have_text("Must be at most 1,024.")
    expect(page.locator("#id_layers")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#status")).to_contain_text("Layers: Must be at most 1,024.")
    assert page.inner_text("#results .steps") == before

    page.fill("#id_layers", "80")
    expect(page.locator("#results")).to_contain_text("2 × 80 layers")
    expect(page.locator("#err_layers")).to_have_text("")
    expect(page.locator("#id_layers")).not_to_have_attribute("aria-invalid", "true")
    # Only HTTP 400s from the bad value may appear in the console, nothing else.
    assert [p for p in page.problems if "400" not in p] == []


def test_copy_link_puts_the_current_address_on_the_clipboard(page, live_server):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.goto("/calculators/prefill-decode/?prompt_tokens=8000")
    page.click("#copy-link")
    expect(page.locator("#copy-status")).to_have_text("Link copied.")
    assert page.evaluate("() => navigator.clipboard.readText()") == page.url


def test_without_javascript_the_form_recomputes_by_a_plain_get(browser, live_server, live_presets):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/calculators/kv-capacity/")
    assert page.locator("input[type=range]").first.is_hidden()  # sliders need the script
    page.fill("#id_free_gib", "18")
    page.click("button[type=submit]")
    assert query(page.url)["free_gib"] == "18"
    assert "18 GiB free after the weights ÷ 0.625 GiB per user = 28.8 users." in page.inner_text("#results")
    context.close()

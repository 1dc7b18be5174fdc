"""Picking a GPU or a model on a calculator page, with and without JavaScript."""

import re
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def query(url: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(urlparse(url).query).items()}


def trace_names(page) -> list[str]:
    return page.evaluate("() => document.getElementById('chart-0').data.map(t => t.name)")


def test_picking_the_h200_fills_the_inputs_draws_the_measurements_and_the_link_reproduces_it(page, browser):
    page.goto("/calculators/roofline/")
    page.wait_for_function("() => document.getElementById('chart-0').data !== undefined")
    assert page.locator("#apply-presets").is_hidden()  # with the script, picking is applying
    assert "measured bf16 GEMM (H200)" not in trace_names(page)

    page.select_option("#id_gpu", "h200")
    expect(page.locator("#id_bandwidth_tbs")).to_have_value("4.8")
    expect(page.locator("#id_peak_tflops")).to_have_value("989")
    expect(page).to_have_url(re.compile(r"gpu=h200(&|$)"))
    expect(page.locator("#results")).to_contain_text("Measured on one H200: copying memory reached 4.24 TB/s")
    page.wait_for_function(
        "() => document.getElementById('chart-0').data.some(t => t.name === 'measured bf16 GEMM (H200)')"
    )
    names = trace_names(page)
    assert "measured fp8 GEMM (H200)" in names and "measured copy bandwidth (H200): 4.24 TB/s" in names
    assert query(page.url)["bandwidth_tbs"] == "4.8"
    steps = page.inner_text("#results .steps")

    shared = browser.new_page()
    shared.goto(page.url)
    assert shared.input_value("#id_gpu") == "h200"
    assert shared.input_value("#id_bandwidth_tbs") == "4.8"
    assert shared.inner_text("#results .steps") == steps
    shared.close()
    assert page.problems == []


def test_picking_a_model_then_a_gpu_fills_the_shape_and_the_free_memory(page):
    page.goto("/calculators/kv-capacity/")
    page.select_option("#id_model", "llama-3-8b")
    expect(page.locator("#id_layers")).to_have_value("32")
    expect(page.locator("#results")).to_contain_text("2 × 32 layers × 8 KV heads × 128 dims × 2 bytes")
    page.select_option("#id_gpu", "h100-sxm")
    expect(page.locator("#id_free_gib")).to_have_value("59.54")
    expect(page.locator("#results")).to_contain_text("59.5 GiB free after the weights")
    expect(page).to_have_url(re.compile(r"model=llama-3-8b"))
    assert query(page.url)["gpu"] == "h100-sxm"
    assert page.problems == []


def test_a_model_too_big_for_the_gpu_says_so_beside_the_picker(page):
    page.goto("/calculators/kv-capacity/?gpu=h100-sxm")
    page.select_option("#id_model", "llama-3.1-405b")
    expect(page.locator("#id_layers")).to_have_value("126")
    expect(page.locator("#err_model")).to_contain_text("Llama 3.1 405B's weights (811.7 GB at 16-bit) leave no room")
    expect(page.locator("#results")).to_contain_text("2 × 126 layers")
    expect(page.locator("#err_model")).to_contain_text("Memory free for the cache is left as it was.")
    assert page.problems == []


def test_without_javascript_apply_presets_fills_the_inputs_by_a_plain_get(browser, live_server, live_presets):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/calculators/kv-capacity/?layers=60")
    page.select_option("#id_model", "llama-3-8b")
    page.click("#apply-presets")
    assert query(page.url) == {"model": "llama-3-8b", "kv_bytes": "2", "context_tokens": "4096", "free_gib": "9"}
    assert page.input_value("#id_layers") == "32"
    assert "2 × 32 layers × 8 KV heads × 128 dims × 2 bytes = 131,072 bytes" in page.inner_text("#results")
    # Recompute sends the filled values back explicitly: the same answer.
    page.click("button[type=submit]:not([name])")
    assert query(page.url)["layers"] == "32"
    assert "= 131,072 bytes" in page.inner_text("#results")
    context.close()

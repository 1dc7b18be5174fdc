"""Every calculator page under the real Content-Security-Policy in chromium: the page
loads, a typed value swaps the results in through htmx, plotly redraws the chart,
and the browser reports no violation at all."""

import pytest
from playwright.sync_api import expect

from calculators.engine import registry
from calculators.management.commands.bench_calculators import slider_sweep

pytestmark = pytest.mark.browser

WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline')));
"""


@pytest.fixture
def watched(page):
    page.add_init_script(WATCH)
    return page


def violations(page) -> list[str]:
    reported = page.evaluate("() => window.__violations")
    console = [p for p in page.problems if "Content Security Policy" in p]
    return reported + console


# Every chart shows the figures of the fragment just swapped in.
DRAWN = """() => {
  const figures = JSON.parse(document.getElementById('chart-data').textContent);
  return figures.every((figure, i) => {
    const drawn = document.getElementById('chart-' + i).data;
    return drawn && drawn.length === figure.data.length && figure.data.every(
      (trace, t) => JSON.stringify(trace.y) === JSON.stringify(drawn[t].y));
  });
}"""


def new_value(calculator):
    """A slider value that differs from the default, so the worked answer must change."""
    name, values = slider_sweep(calculator, 10)
    default = calculator.defaults[name]
    return name, next(v for v in values[3:] if v != default)


def test_the_watch_catches_an_inline_script_so_the_policy_is_really_enforced(watched):
    watched.goto("/calculators/")
    watched.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.ran = 1'; "
                     "document.body.append(s); }")  # fmt: skip
    watched.wait_for_function("() => window.__violations.length > 0")
    assert watched.evaluate("() => window.ran") is None
    assert any(v.startswith("script-src") for v in violations(watched))
    # A string timer is eval: the page itself runs it, so the policy must refuse it too.
    watched.evaluate("() => setTimeout('window.evaled = 1', 0)")
    watched.wait_for_function("() => window.__violations.some((v) => v.includes('eval'))")
    assert watched.evaluate("() => window.evaled") is None


@pytest.mark.parametrize("calculator", registry.all_calculators(), ids=lambda c: c.slug)
def test_each_calculator_runs_under_the_policy_with_no_violation(watched, calculator):
    watched.goto(f"/calculators/{calculator.slug}/")
    watched.wait_for_function(
        "() => document.querySelector('#chart-0 .main-svg') && document.getElementById('chart-0').data"
    )
    before_steps = watched.inner_text("#results .steps")

    name, value = new_value(calculator)
    watched.fill(f"#id_{name}", str(value))
    expect(watched.locator("#results .steps")).not_to_have_text(before_steps)
    watched.wait_for_function(DRAWN)
    assert watched.locator("#chart-0 .main-svg").count() >= 1  # plotly drew an SVG
    assert violations(watched) == []
    assert watched.problems == []


@pytest.mark.parametrize(
    "url",
    ["/", "/banks/ai-serving-infrastructure/", "/questions/request-lifecycle/", "/glossary/", "/glossary/kv-cache/",
     "/search/?q=cache"],
)  # fmt: skip
def test_each_content_page_loads_under_the_policy_with_no_violation(watched, transactional_db, shipped_records, url):
    from tests.conftest import save_shipped

    save_shipped(shipped_records)  # the live server's tables are flushed between tests
    watched.goto(url)
    watched.wait_for_load_state("load")
    if watched.locator("details#answer").count():
        watched.click("details#answer > summary")  # the worked answer and its chart are drawn when opened
    if watched.locator("#chart-0").count():
        watched.wait_for_function("() => document.querySelector('#chart-0 .main-svg')")
    assert violations(watched) == []
    assert watched.problems == []

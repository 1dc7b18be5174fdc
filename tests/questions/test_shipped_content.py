"""The content the site ships with: both banks in the brief's order, every brief term, the brief's figures."""

import re

import pytest

from calculators.validation import calculator_value_errors
from glossary.models import Term
from questions.models import Bank, Question

BANK_1 = [
    # slug, difficulty, calculator, the brief's figures as the live worked answer shows them
    ("request-lifecycle", "warm-up", "prefill-decode",
     ["140 GFLOPs", "2.8 × 10¹⁴ FLOPs", "0.283 s", "140 GB", "23.9 tokens/s"]),
    ("users-per-gpu", "core", "kv-capacity", ["160 KiB", "640 MiB", "9 GiB", "14.4 users", "14 users"]),
    ("batching-throughput", "core", "batching", ["70 GB", "47.9 tokens/s", "766 tokens/s"]),
    ("continuous-batching-admission", "core", "continuous-batching",
     ["8,000 tokens", "8 replies", "16 replies", "2× as many"]),
    ("paged-attention-utilisation", "core", "paged-attention",
     ["640 MiB", "6.25 GiB", "187.5 MiB", "29 %", "71 %", "2.34 MiB"]),
    ("prefix-cache-payoff", "warm-up", "prefix-cache",
     ["30 million", "$90.00", "$7.20", "$18.00", "$25.20", "$64.80"]),
    ("speculative-decoding-quality", "hard", "speculative-decoding",
     ["1 + 0.7 + 0.49 + 0.343 = 2.53", "60.8 tokens/s", "38.0 tokens/s"]),
    ("compute-free-kv-full", "hard", "kv-capacity", ["80 KiB", "28.8 users"]),
    ("serving-health-metrics", "core", "queueing", ["p95 TTFT"]),
    ("decode-memory-bound", "hard", "roofline",
     ["295 FLOP/byte", "1 FLOP/byte", "2,000 FLOP/byte", "23.9 tokens/s", "295× below the ridge"]),
]  # fmt: skip

BANK_2 = [
    ("kv-cache-basics", "warm-up", "kv-capacity"),
    ("serve-70b-ttft-sla", "hard", "prefill-decode"),
    ("autoscaling-gpu-inference", "core", "autoscaling"),
    ("batch-online-streaming", "warm-up", "cost-per-prediction"),
    ("slow-llm-feature", "core", "prefill-decode"),
    ("bill-tripled", "core", "cost-per-prediction"),
    ("fifty-ms-budget", "hard", "latency-budget"),
    ("cost-of-one-prediction", "core", "cost-per-prediction"),
    ("batching-latency-tradeoff", "core", "batching"),
]

BRIEF_TERMS = [
    "kv-cache", "prefill", "decode", "time-to-first-token", "inter-token-latency", "tokens-per-second", "flops",
    "memory-bandwidth", "memory-bound", "compute-bound", "arithmetic-intensity", "roofline", "ridge-point",
    "batching", "static-batching", "continuous-batching", "decode-slot", "preemption", "admission-control",
    "paged-attention", "kv-block", "grouped-query-attention", "context-window", "prefix-cache", "hit-rate",
    "speculative-decoding", "draft-model", "acceptance-rate", "quantization", "kv-cache-quantization",
    "cpu-offload", "tensor-parallelism", "chunked-prefill", "p95-latency", "queue-depth", "utilisation",
    "littles-law", "autoscaling", "cold-start", "warm-capacity", "batch-online-streaming-inference",
    "feature-store", "distillation", "cost-per-prediction", "latency-budget", "degraded-path", "sla-slo",
]  # fmt: skip
ALIASES = {"time-to-first-token": "TTFT", "inter-token-latency": "ITL", "grouped-query-attention": "GQA"}


def test_both_banks_ship_in_order_with_nineteen_questions(content):
    banks = list(Bank.objects.order_by("order"))
    assert [(b.slug, b.questions.count()) for b in banks] == [("ai-serving-infrastructure", 10), ("inference", 9)]
    assert Question.objects.count() == 19


def test_bank_one_follows_the_brief_in_order_difficulty_and_calculator(content):
    rows = Question.objects.filter(bank__slug="ai-serving-infrastructure").order_by("order")
    assert [(q.slug, q.difficulty, q.calculator) for q in rows] == [row[:3] for row in BANK_1]


def test_bank_two_follows_the_brief_in_order_difficulty_and_calculator(content):
    rows = Question.objects.filter(bank__slug="inference").order_by("order")
    assert [(q.slug, q.difficulty, q.calculator) for q in rows] == BANK_2


def test_the_brief_pins_the_calculator_settings_of_two_questions(content):
    assert Question.objects.get(slug="batching-throughput").values["bytes_per_param"] == 1
    assert Question.objects.get(slug="compute-free-kv-full").values["kv_bytes"] == 1


def test_every_question_has_all_its_parts(content):
    for q in Question.objects.all():
        assert q.question_html and q.answer_html and q.takeaway, q.slug
        assert len(q.follow_ups) >= 3 and len(q.strong_answer) >= 3 and len(q.red_flags) >= 3, q.slug
        assert q.terms.count() >= 3, q.slug


def test_every_question_calculator_value_is_within_its_calculator_bounds(content):
    for q in Question.objects.all():
        assert calculator_value_errors(q.calculator, q.values) == {}, q.slug


@pytest.mark.parametrize("slug, figures", [(row[0], row[3]) for row in BANK_1])
def test_each_bank_one_page_shows_the_brief_figures_in_its_live_worked_answer(client, content, slug, figures):
    html = client.get(f"/questions/{slug}/").content.decode()
    worked = html[html.index('<ol class="steps">') : html.index("</ol>", html.index('<ol class="steps">'))]
    worked += html[html.index('<p class="conclusion">') :][:600]
    for figure in figures:
        assert figure in worked, f"{slug}: {figure}"


def test_every_brief_glossary_term_ships(content):
    assert set(BRIEF_TERMS) <= set(Term.objects.values_list("slug", flat=True))


def test_abbreviations_are_aliases_of_their_terms(content):
    for slug, alias in ALIASES.items():
        assert alias in Term.objects.get(slug=slug).aliases


def test_every_term_has_a_definition_an_example_and_related_terms(content):
    for term in Term.objects.all():
        assert term.definition_html.startswith("<p>"), term.slug
        assert re.search(r"\d", term.example), f"{term.slug}: the worked example needs numbers"
        assert term.related.exists(), term.slug


def test_every_term_example_calculator_values_are_valid(content):
    for term in Term.objects.exclude(calculator=""):
        assert calculator_value_errors(term.calculator, term.values) == {}, term.slug


def test_every_question_term_appears_in_its_text_so_it_gets_linked(client, content):
    for q in Question.objects.all():
        html = client.get(q.get_absolute_url()).content.decode()
        body = html[html.index('<div class="asked">') : html.index('<section class="worked"')]
        for term in q.terms.all():
            assert f'href="/glossary/{term.slug}/"' in body, f"{q.slug}: {term.slug} is never named in the text"

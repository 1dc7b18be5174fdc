"""`manage.py load_content`: validates every file first, writes in one transaction, upserts by slug."""

import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from calculators.models import GpuPreset, ModelPreset
from glossary.models import Term
from prepsite.content import CONTENT_DIR
from questions.models import Bank, Question

BANK = """slug: tiny
title: Tiny bank
order: 1
summary: Two questions for tests.
"""
QUESTION = """slug: {slug}
order: {order}
title: Question {order}
difficulty: core
question: How many users fit in the *KV cache*?
answer: |
  Divide the free memory by the cache each user needs.
takeaway: Cache memory sets the ceiling.
calculator: kv-capacity
values: {{layers: 40, kv_heads: 8, head_dim: 128, kv_bytes: 2, context_tokens: 4096, free_gib: 9}}
checks: ["160 KiB", "640 MiB"]
follow_ups: ["What if the context doubles?"]
strong_answer: [Names KV heads, not attention heads.]
red_flags: [Counts requests instead of tokens.]
terms: [kv-cache]
"""
TERM = """slug: {slug}
term: {term}
aliases: [{alias}]
definition: The {term} is defined here.
example: 2 × 40 × 8 × 128 × 2 = 160 KiB.
calculator: kv-capacity
values: {{kv_bytes: 1}}
related: [{related}]
"""


def write_tree(root: Path) -> Path:
    (root / "banks" / "tiny").mkdir(parents=True)
    shutil.copytree(CONTENT_DIR / "presets", root / "presets")
    (root / "glossary").mkdir()
    (root / "banks" / "tiny" / "_bank.yaml").write_text(BANK)
    for order in (1, 2):
        (root / "banks" / "tiny" / f"0{order}-q{order}.yaml").write_text(QUESTION.format(slug=f"q{order}", order=order))
    (root / "glossary" / "kv-cache.yaml").write_text(TERM.format(slug="kv-cache", term="KV cache", alias="KV store",
                                                                related="prefill"))  # fmt: skip
    (root / "glossary" / "prefill.yaml").write_text(TERM.format(slug="prefill", term="Prefill", alias="prompt pass",
                                                                related="kv-cache"))  # fmt: skip
    return root


def load(path: Path, *args: str) -> str:
    out = StringIO()
    call_command("load_content", "--path", str(path), *args, stdout=out)
    return out.getvalue()


def counts() -> tuple[int, int, int, int, int]:
    return (Bank.objects.count(), Question.objects.count(), Term.objects.count(),
            GpuPreset.objects.count(), ModelPreset.objects.count())  # fmt: skip


@pytest.fixture
def tree(tmp_path, no_content):
    return write_tree(tmp_path / "content")


def test_it_creates_everything_and_reports_it(tree):
    report = load(tree)
    assert report.splitlines() == [
        "glossary terms: 2 created, 0 updated, 0 unchanged",
        "banks: 1 created, 0 updated, 0 unchanged",
        "questions: 2 created, 0 updated, 0 unchanged",
        "GPU presets: 6 created, 0 updated, 0 unchanged",
        "model presets: 7 created, 0 updated, 0 unchanged",
    ]
    question = Question.objects.get(slug="q1")
    assert question.bank.slug == "tiny"
    assert question.values == {"layers": 40, "kv_heads": 8, "head_dim": 128, "kv_bytes": 2,
                               "context_tokens": 4096, "free_gib": 9}  # fmt: skip
    assert [t.slug for t in question.terms.all()] == ["kv-cache"]
    assert question.question_html == "<p>How many users fit in the <em>KV cache</em>?</p>"
    assert [t.slug for t in Term.objects.get(slug="kv-cache").related.all()] == ["prefill"]


def test_loading_twice_changes_nothing(tree):
    load(tree)
    stamps = sorted(Question.objects.values_list("updated", flat=True))
    report = load(tree)
    assert report.splitlines() == [
        "glossary terms: 0 created, 0 updated, 2 unchanged",
        "banks: 0 created, 0 updated, 1 unchanged",
        "questions: 0 created, 0 updated, 2 unchanged",
        "GPU presets: 0 created, 0 updated, 6 unchanged",
        "model presets: 0 created, 0 updated, 7 unchanged",
    ]
    assert sorted(Question.objects.values_list("updated", flat=True)) == stamps


def test_an_edited_file_updates_only_its_row(tree):
    load(tree)
    path = tree / "banks" / "tiny" / "02-q2.yaml"
    path.write_text(path.read_text().replace("title: Question 2", "title: Users per GPU"))
    assert "questions: 0 created, 1 updated, 1 unchanged" in load(tree)
    assert Question.objects.get(slug="q2").title == "Users per GPU"


def test_changed_terms_count_as_an_update(tree):
    load(tree)
    path = tree / "banks" / "tiny" / "01-q1.yaml"
    path.write_text(path.read_text().replace("terms: [kv-cache]", "terms: [kv-cache, prefill]"))
    assert "questions: 0 created, 1 updated, 1 unchanged" in load(tree)


def test_check_validates_and_writes_nothing(tree):
    assert load(tree, "--check") == (
        "OK: 2 glossary terms, 1 banks, 2 questions, 6 GPU presets and 7 model presets are valid.\n"
    )
    assert counts() == (0, 0, 0, 0, 0)


BROKEN = [
    # (file, old text, new text, the message that must name the file and field)
    ("banks/tiny/02-q2.yaml", "free_gib: 9", "free_gib: 0",
     "content/banks/tiny/02-q2.yaml: values: free_gib: Must be at least 0.01."),
    ("banks/tiny/02-q2.yaml", "free_gib: 9", "free_gb: 9",
     "content/banks/tiny/02-q2.yaml: values: free_gb: The kv-capacity calculator has no input called “free_gb”."),
    ("banks/tiny/02-q2.yaml", "free_gib: 9", "free_gib: lots",
     "content/banks/tiny/02-q2.yaml: values: free_gib: Must be a number, not 'lots'."),
    ("banks/tiny/02-q2.yaml", "calculator: kv-capacity", "calculator: kv-capacty",
     "content/banks/tiny/02-q2.yaml: calculator: There is no calculator called “kv-capacty”."),
    ("banks/tiny/02-q2.yaml", '"640 MiB"', '"641 MiB"',
     "content/banks/tiny/02-q2.yaml: checks: the worked answer at these values does not show “641 MiB”"),
    ("banks/tiny/02-q2.yaml", "terms: [kv-cache]", "terms: [kv-cash]",
     "content/banks/tiny/02-q2.yaml: terms: unknown glossary term “kv-cash”"),
    ("banks/tiny/02-q2.yaml", "difficulty: core", "difficulty: medium",
     "content/banks/tiny/02-q2.yaml: difficulty: “medium” is not one of: warm-up, core, hard"),
    ("banks/tiny/02-q2.yaml", "takeaway: Cache memory sets the ceiling.\n", "",
     "content/banks/tiny/02-q2.yaml: takeaway: is required"),
    ("banks/tiny/02-q2.yaml", "order: 2", "order: 1",
     "content/banks/tiny/02-q2.yaml: order: 1 is also the order of 01-q1.yaml"),
    ("banks/tiny/02-q2.yaml", "slug: q2", "slug: q1",
     "content/banks/tiny/02-q2.yaml: slug: “q1” is also used by tiny/01-q1.yaml"),
    ("banks/tiny/02-q2.yaml", "title: Question 2", "titel: Question 2",
     "content/banks/tiny/02-q2.yaml: titel: unknown field"),
    ("banks/tiny/02-q2.yaml", "question: How", "question: [How",
     "content/banks/tiny/02-q2.yaml: is not valid YAML at line"),
    ("banks/tiny/02-q2.yaml", 'follow_ups: ["What if the context doubles?"]', "follow_ups: What if?",
     "content/banks/tiny/02-q2.yaml: follow_ups: must be a list of non-empty text items"),
    ("banks/tiny/_bank.yaml", "slug: tiny", "slug: Tiny Bank",
     "content/banks/tiny/_bank.yaml: slug: 'Tiny Bank' is not a slug"),
    ("glossary/prefill.yaml", "related: [kv-cache]", "related: [decode]",
     "content/glossary/prefill.yaml: related: unknown glossary term “decode”"),
    ("glossary/prefill.yaml", "aliases: [prompt pass]", "aliases: [KV cache]",
     "content/glossary/prefill.yaml: aliases: “KV cache” already names the term “kv-cache”"),
    ("presets/gpus.yaml", "bandwidth_tbs: 3.35", "bandwidth_tbs: fast",
     "content/presets/gpus.yaml: gpus[h100-sxm].bandwidth_tbs:"),
    ("glossary/prefill.yaml", "values: {kv_bytes: 1}", "values: {kv_bytes: 8}",
     "content/glossary/prefill.yaml: values: kv_bytes: Must be at most 4."),
]  # fmt: skip


@pytest.mark.parametrize("relative, old, new, message", BROKEN, ids=[b[3].split(": ", 1)[1][:40] for b in BROKEN])
def test_a_broken_file_is_refused_with_its_file_and_field_and_nothing_is_written(tree, relative, old, new, message):
    path = tree / relative
    assert old in path.read_text()
    path.write_text(path.read_text().replace(old, new))
    with pytest.raises(CommandError) as refused:
        load(tree)
    assert str(refused.value).startswith("Refused, nothing was written. ")
    assert message in str(refused.value).replace(str(tree.parent) + "/", "")
    assert counts() == (0, 0, 0, 0, 0)


def test_a_broken_file_leaves_earlier_content_exactly_as_it_was(tree):
    load(tree)
    before = list(Question.objects.order_by("slug").values())
    first = tree / "banks" / "tiny" / "01-q1.yaml"
    first.write_text(first.read_text().replace("title: Question 1", "title: Changed"))
    last = tree / "banks" / "tiny" / "02-q2.yaml"
    last.write_text(last.read_text().replace("free_gib: 9", "free_gib: -1"))
    with pytest.raises(CommandError):
        load(tree)
    assert list(Question.objects.order_by("slug").values()) == before


def test_a_missing_content_folder_is_a_clear_error(tmp_path, no_content):
    with pytest.raises(CommandError, match="No content folder at"):
        load(tmp_path / "nowhere")


def test_the_shipped_content_loads_completely(no_content, tmp_path):
    copy = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, copy)
    report = load(copy)
    assert "banks: 2 created" in report
    assert "questions: 19 created" in report
    assert load(copy).count(" 0 created, 0 updated") == 5

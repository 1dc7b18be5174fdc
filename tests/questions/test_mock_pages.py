"""The mock interview over HTTP: setup and its bad input, one question at a time against the clock, the summary."""

import re
from html import unescape

import pytest

from questions import mock, mock_views
from questions.models import Question


class Clock:
    def __init__(self, start=1_000_000.0):
        self.now = start

    def __call__(self):
        return self.now


@pytest.fixture(autouse=True)
def seed(monkeypatch):
    """The same draw on every run; drawing itself is tested in test_mock_logic.py."""
    monkeypatch.setattr(mock, "new_seed", lambda: 20260101)


@pytest.fixture
def clock(monkeypatch):
    clock = Clock()
    monkeypatch.setattr(mock_views, "now", clock)
    return clock


def start(client, **data):
    form = {"banks": ["ai-serving-infrastructure", "inference"], "count": 3, "minutes": 2, **data}
    response = client.post("/mock/", form)
    assert response.status_code == 303, response.content.decode()[:2000]
    assert response["Location"] == "/mock/1/"
    return client.session["mock"]


def errors(response) -> list[str]:
    html = unescape(response.content.decode())
    box = html[html.index('<div class="status-error form-errors" role="alert">') :]
    return re.findall(r"<li>(.*?)</li>", box[: box.index("</div>")])


def test_the_setup_page_offers_every_bank_all_ticked_and_sensible_defaults(client, content):
    response = client.get("/mock/")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<input type="checkbox" name="banks" value="ai-serving-infrastructure" checked> AI serving' in html
    assert '<input type="checkbox" name="banks" value="inference" checked> Inference' in html
    assert 'name="count" value="5" min="1" max="20"' in html
    assert 'name="minutes" value="5" min="1" max="30"' in html
    assert '<input type="checkbox" name="difficulties" value="hard"> Hard' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert '<meta property="og:title" content="Mock interview">' in html


def test_a_setup_link_fills_the_form_in_and_ignores_what_it_cannot_use(client, content):
    html = client.get("/mock/?banks=inference&banks=nope&difficulties=hard&count=3&minutes=99").content.decode()
    assert '<input type="checkbox" name="banks" value="inference" checked>' in html
    assert '<input type="checkbox" name="banks" value="ai-serving-infrastructure">' in html
    assert '<input type="checkbox" name="difficulties" value="hard" checked>' in html
    assert 'name="count" value="3"' in html
    assert 'name="minutes" value="5"' in html  # 99 is out of bounds: the default stays


def test_starting_draws_the_questions_asked_for_without_repeats_from_the_chosen_banks(client, content):
    state = start(client, banks=["inference"], count=9)
    slugs = [s["slug"] for s in state["steps"]]
    assert len(slugs) == 9 and len(set(slugs)) == 9
    assert set(slugs) == set(Question.objects.filter(bank__slug="inference").values_list("slug", flat=True))
    assert state["limit"] == 120
    assert state["setup"] == {"banks": ["inference"], "difficulties": [], "count": 9, "minutes": 2}
    q = Question.objects.get(slug=slugs[0])
    assert state["steps"][0]["points"] == len(q.strong_answer)
    assert state["steps"][0]["terms"] == sorted(q.terms.values_list("slug", flat=True))


def test_difficulties_narrow_the_draw(client, content):
    state = start(client, difficulties=["hard"], count=2)
    assert {Question.objects.get(slug=s["slug"]).difficulty for s in state["steps"]} == {"hard"}


def test_a_reload_neither_reshuffles_nor_restarts_the_clock(client, content, clock):
    state = start(client)
    client.get("/mock/1/")
    clock.now += 50
    html = client.get("/mock/1/").content.decode()
    assert [s["slug"] for s in client.session["mock"]["steps"]] == [s["slug"] for s in state["steps"]]
    assert client.session["mock"]["steps"][0]["opened"] == 1_000_000.0
    assert '<p class="timer" id="timer" role="timer" data-remaining="70">1:10 left</p>' in html


@pytest.mark.parametrize(
    ("data", "messages"),
    [
        ({"banks": ["nope"]}, ["Banks: There is no bank called “nope”."]),
        ({"banks": []}, ["Banks: Choose at least one bank."]),
        ({"count": 0}, ["Questions: Ask for at least 1 question."]),
        ({"count": 21}, ["Questions: Ask for at most 20 questions."]),
        ({"count": "five"}, ["Questions: Give the number of questions as a whole number."]),
        ({"count": "1e309"}, ["Questions: Give the number of questions as a whole number."]),
        ({"count": "9" * 400}, ["Questions: Ask for at most 20 questions."]),
        ({"count": ""}, ["Questions: Say how many questions to ask."]),
        ({"minutes": 0}, ["Minutes per question: Give each question at least 1 minute."]),
        ({"minutes": 31}, ["Minutes per question: Give each question at most 30 minutes."]),
        ({"difficulties": ["easy"]},
         ["Difficulties: There is no difficulty called “easy”: choose warm-up, core or hard."]),
        ({"banks": ["inference"], "count": 10},
         ["Questions: Only 9 questions match those banks and difficulties: ask for 9 or fewer, or choose more."]),
        ({"banks": ["inference"], "difficulties": ["hard"], "count": 5},
         ["Questions: Only 2 questions match those banks and difficulties: ask for 2 or fewer, or choose more."]),
    ],
)  # fmt: skip
def test_bad_setup_is_refused_with_a_clear_message_and_the_choices_kept(client, content, data, messages):
    form = {"banks": ["ai-serving-infrastructure", "inference"], "count": 3, "minutes": 2, **data}
    response = client.post("/mock/", form)
    assert response.status_code == 400
    assert errors(response) == messages
    assert "mock" not in client.session


def test_one_matching_question_is_counted_in_the_singular(client, content):
    Question.objects.filter(bank__slug="inference", difficulty="hard").first().delete()
    response = client.post("/mock/", {"banks": ["inference"], "difficulties": ["hard"], "count": 2, "minutes": 2})
    assert errors(response) == [
        "Questions: Only 1 question matches those banks and difficulties: ask for 1 or fewer, or choose more."
    ]


def test_no_matching_question_says_so(client, content):
    Question.objects.filter(bank__slug="inference", difficulty="warm-up").delete()
    response = client.post("/mock/", {"banks": ["inference"], "difficulties": ["warm-up"], "count": 1, "minutes": 2})
    assert response.status_code == 400
    assert errors(response) == ["No question matches those banks and difficulties: choose more of either."]


def test_a_question_shows_the_clock_then_the_checklist_once_the_clock_stops(client, content, clock):
    state = start(client)
    q = Question.objects.get(slug=state["steps"][0]["slug"])
    html = unescape(client.get("/mock/1/").content.decode())
    assert "Mock interview · question 1 of 3 · 2:00 per question" in html
    assert f"<h1>{q.title}</h1>" in html
    assert 'data-remaining="120">2:00 left</p>' in html
    assert q.strong_answer[0] not in html  # the checklist is not shown while answering
    assert '<button type="submit" name="action" value="stop">Stop the clock and score my answer</button>' in html

    clock.now += 100
    response = client.post("/mock/1/", {"action": "stop"})
    assert response.status_code == 303 and response["Location"] == "/mock/1/"
    clock.now += 500  # time spent scoring does not count
    html = unescape(client.get("/mock/1/").content.decode())
    assert '<p class="" id="taken">You took 1:40 of 2:00.</p>' in html
    for index, point in enumerate(q.strong_answer):
        assert f'<input type="checkbox" name="covered" value="{index}"> {point}</label>' in html
    assert "Save score and go to question 2" in html
    # The model answer comes before the checklist: read it, then judge your own answer against the points.
    assert html.index("<summary>Compare with the model answer</summary>") < html.index("Tick what your answer covered")


def test_without_javascript_the_server_marks_an_answer_over_time(client, content, clock):
    start(client)
    client.get("/mock/1/")
    clock.now += 150
    client.post("/mock/1/", {"action": "stop"})
    html = client.get("/mock/1/").content.decode()
    assert '<p class="overtime" id="taken">You took 2:30 of 2:00: 0:30 over time.</p>' in html
    clock.now += 10
    html = client.get("/mock/2/").content.decode()
    assert "Question 2 is not open yet: finish question 1 first." in unescape(html)


def test_an_answer_left_open_past_the_limit_shows_time_is_up(client, content, clock):
    start(client)
    client.get("/mock/1/")
    clock.now += 185
    html = client.get("/mock/1/").content.decode()
    assert '<p class="timer overtime" id="timer" role="timer" data-remaining="-65">Time is up: 1:05 over</p>' in html


def test_scoring_moves_on_to_the_next_question_and_then_to_the_summary(client, content, clock):
    state = start(client, count=2)
    client.get("/mock/1/")
    clock.now += 60
    response = client.post("/mock/1/", {"action": "score", "covered": ["0", "2"], "notes": "mixed GB and GiB"})
    assert response.status_code == 303 and response["Location"] == "/mock/2/"
    assert client.session["mock"]["steps"][0]["covered"] == [0, 2]
    assert client.session["mock"]["steps"][0]["notes"] == "mixed GB and GiB"
    assert client.session["mock"]["steps"][0]["stopped"] - client.session["mock"]["steps"][0]["opened"] == 60
    html = unescape(client.get("/mock/1/").content.decode())
    assert "Scored: 2 of" in html and "in 1:00" in html
    assert '<a class="button" href="/mock/2/">Go to question 2</a>' in html
    client.get("/mock/2/")
    response = client.post("/mock/2/", {"action": "score"})
    assert response["Location"] == "/mock/summary/"
    assert client.session["mock"]["steps"][1]["covered"] == []
    assert [s["slug"] for s in client.session["mock"]["steps"]] == [s["slug"] for s in state["steps"]]


@pytest.mark.parametrize(
    ("step", "data", "status", "message"),
    [
        (1, {"action": "score", "covered": ["99"]}, 400, "has {points} points to tick: there is no point 100."),
        (1, {"action": "score", "covered": ["x"]}, 400, "“x” is not one of the points to tick."),
        (1, {"action": "score", "notes": "n" * 2001}, 400, "Keep the notes under 2,000 characters (these are 2,001)."),
        (1, {"action": "dance"}, 400, "“dance” is not something a mock interview can do: stop, score or end."),
        (1, {}, 400, "“” is not something a mock interview can do: stop, score or end."),
        (2, {"action": "score", "covered": ["0"]}, 400, "Question 2 is not open yet: finish question 1 first."),
        (3, {"action": "stop"}, 400, "Question 3 is not open yet: finish question 1 first."),
        (4, {"action": "stop"}, 404, "This mock interview has 3 questions: there is no question 4."),
        (0, {"action": "score"}, 404, "This mock interview has 3 questions: there is no question 0."),
    ],
)
def test_tampered_steps_and_ticks_get_a_clear_message_and_change_nothing(client, content, step, data, status, message):
    state = start(client)
    client.get("/mock/1/")
    before = client.session["mock"]
    response = client.post(f"/mock/{step}/", data)
    points = state["steps"][0]["points"]
    assert response.status_code == status
    assert message.format(points=points) in unescape(response.content.decode())
    assert client.session["mock"] == before


def test_scoring_a_question_twice_is_refused(client, content):
    start(client)
    client.post("/mock/1/", {"action": "score", "covered": ["0"]})
    response = client.post("/mock/1/", {"action": "score", "covered": ["0", "1"]})
    assert response.status_code == 400
    assert "Question 1 is already scored." in response.content.decode()
    assert client.session["mock"]["steps"][0]["covered"] == [0]


@pytest.mark.parametrize("url", ["/mock/1/", "/mock/summary/"])
def test_without_a_mock_in_progress_the_pages_say_how_to_start_one(client, content, url):
    response = client.get(url)
    assert response.status_code == 404
    html = response.content.decode()
    assert "There is no mock interview in progress in this browser: start one below." in html
    assert '<a href="/mock/">Start a mock interview</a>' in html


def test_a_foreign_value_in_the_session_is_not_read_as_a_mock_interview(client, content):
    session = client.session
    session["mock"] = {"version": 99, "steps": "junk"}
    session.save()
    assert client.get("/mock/1/").status_code == 404
    assert client.get("/mock/").status_code == 200


def finish(client, clock, ticks_and_seconds):
    for number, (ticks, seconds) in enumerate(ticks_and_seconds, start=1):
        client.get(f"/mock/{number}/")
        clock.now += seconds
        client.post(f"/mock/{number}/", {"action": "score", "covered": [str(i) for i in ticks]})


def test_the_summary_scores_each_question_flags_overtime_and_names_weak_topics_with_links(client, content, clock):
    steps = start(client)["steps"]
    questions = [Question.objects.get(slug=s["slug"]) for s in steps]
    all_first = list(range(len(questions[0].strong_answer)))
    finish(client, clock, [(all_first, 90), ([0], 150), ([0, 1, 2], 30)])
    response = client.get("/mock/summary/")
    html = unescape(response.content.decode())
    assert response.status_code == 200
    total = sum(len(q.strong_answer) for q in questions)
    covered = len(all_first) + 1 + 3
    assert f'<dd id="total">{covered} of {total}</dd>' in html
    assert f"<dd>{round(100 * covered / total)} %</dd>" in html
    row = r'<tr>\s*<td>(\d)</td>.*?<td class="number">(.*?)</td>\s*<td class="number( overtime)?">(.*?)</td>'
    rows = re.findall(row, html, re.S)
    assert rows == [
        ("1", f"{len(all_first)} / {len(all_first)}", "", "1:30"),
        ("2", f"1 / {len(questions[1].strong_answer)}", " overtime", "2:30 (over by 0:30)"),
        ("3", f"3 / {len(questions[2].strong_answer)}", "", "0:30"),
    ]
    weak = html[html.index('<ol class="weak"') : html.index("</ol>", html.index('<ol class="weak"'))]
    weakest = questions[1]  # 1 point ticked, at least 3 to tick: the lowest share
    first = weak[: weak.index("</li>")]
    assert weakest.title in first
    assert questions[0].title not in weak
    assert f'<a href="{weakest.get_absolute_url()}">{weakest.title}</a>' in weak
    assert f'<a href="{weakest.calculator_url()}">' in weak
    for term in weakest.terms.all():
        assert f'<a href="/glossary/{term.slug}/">{term.term}</a>' in weak
    for point in weakest.strong_answer[1:]:
        assert f"<li>{point}</li>" in weak
    assert "Glossary terms to revise" in html


def test_a_summary_with_no_weak_topics_says_so(client, content, clock):
    steps = start(client, count=1)["steps"]
    q = Question.objects.get(slug=steps[0]["slug"])
    finish(client, clock, [(range(len(q.strong_answer)), 10)])
    html = client.get("/mock/summary/").content.decode()
    assert "No weak topics: every scored question reached 70 % of its points." in html


def test_ending_early_takes_you_to_the_summary_with_the_rest_skipped(client, content, clock):
    start(client)
    finish(client, clock, [([0], 20)])
    client.get("/mock/2/")
    response = client.post("/mock/2/", {"action": "end"})
    assert response.status_code == 303 and response["Location"] == "/mock/summary/"
    html = client.get("/mock/summary/").content.decode()
    assert "The interview ended early: 2 questions skipped, counted as 0 points." in html
    assert html.count('<td class="number">skipped</td>') == 2
    response = client.get("/mock/2/")
    assert response.status_code == 400
    assert "The interview ended before question 2; the summary lists what was scored." in response.content.decode()


def test_the_summary_midway_says_the_interview_is_still_running(client, content, clock):
    start(client)
    finish(client, clock, [([0], 20)])
    html = client.get("/mock/summary/").content.decode()
    assert 'In progress: 1 of 3 questions scored. <a href="/mock/2/">Continue with question 2</a>' in html
    assert html.count('<td class="number">to come</td>') == 2


def test_another_interview_like_this_one_starts_a_fresh_draw_with_the_same_setup(client, content, clock, monkeypatch):
    start(client, banks=["inference"], count=2, minutes=3)
    html = client.get("/mock/summary/").content.decode()
    assert '<input type="hidden" name="banks" value="inference">' in html
    assert '<input type="hidden" name="count" value="2">' in html
    assert '<input type="hidden" name="minutes" value="3">' in html
    monkeypatch.setattr(mock, "new_seed", lambda: 12345)
    client.post("/mock/", {"banks": ["inference"], "count": 2, "minutes": 3})
    assert client.session["mock"]["seed"] == 12345
    assert client.session["mock"]["steps"][0]["opened"] is None


def test_the_setup_page_offers_to_resume_the_interview_in_progress(client, content):
    start(client)
    html = client.get("/mock/").content.decode()
    assert '<a class="button" href="/mock/1/">Continue with question 1</a>' in html
    assert "Starting a new one below replaces it." in html


def test_a_question_removed_mid_interview_still_lets_the_interview_finish(client, content, clock):
    steps = start(client, count=1)["steps"]
    Question.objects.filter(slug=steps[0]["slug"]).delete()
    html = client.get("/mock/1/").content.decode()
    assert "This question has left the banks since the interview began." in html
    client.post("/mock/1/", {"action": "score"})
    html = client.get("/mock/summary/").content.decode()
    assert steps[0]["title"] in unescape(html)


def test_mock_pages_are_not_cached_and_not_indexed(client, content):
    start(client)
    response = client.get("/mock/1/")
    assert "no-cache" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert '<meta name="robots" content="noindex">' in response.content.decode()


def test_mock_pages_refuse_other_methods(client, content):
    assert client.put("/mock/").status_code == 405
    assert client.post("/mock/summary/").status_code == 405


def test_the_home_page_nav_and_each_bank_lead_to_the_mock_interview(client, content):
    home = client.get("/").content.decode()
    assert '<a href="/mock/">Mock interview</a>' in home
    bank = client.get("/banks/inference/").content.decode()
    assert '<a href="/mock/?banks=inference">Mock interview on this bank</a>' in bank
    setup = client.get("/mock/").content.decode()
    assert '<a href="/mock/" aria-current="page">Mock interview</a>' in setup
    assert '<a href="/" aria-current="page">Questions</a>' not in setup

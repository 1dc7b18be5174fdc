"""/api/banks/: the banks in order, each with its questions in order."""

from urllib.parse import parse_qsl, urlsplit

from questions.models import Question


def test_it_lists_the_banks_and_questions_in_order(client, content):
    response = client.get("/api/banks/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    banks = response.json()
    assert [b["slug"] for b in banks] == ["ai-serving-infrastructure", "inference"]
    assert [len(b["questions"]) for b in banks] == [10, 9]
    first = banks[0]["questions"][0]
    assert set(first) == {"slug", "title", "difficulty", "url", "calculator_url"}
    assert first["slug"] == "request-lifecycle"
    assert first["difficulty"] == "warm-up"
    assert first["url"] == "http://testserver/questions/request-lifecycle/"
    for bank in banks:
        orders = [Question.objects.get(slug=q["slug"]).order for q in bank["questions"]]
        assert orders == sorted(orders)


def test_calculator_urls_carry_each_question_starting_values(client, content):
    for bank in client.get("/api/banks/").json():
        for item in bank["questions"]:
            q = Question.objects.get(slug=item["slug"])
            url = urlsplit(item["calculator_url"])
            assert url.path == f"/calculators/{q.calculator}/"
            assert {k: float(v) for k, v in parse_qsl(url.query)} == {k: float(v) for k, v in q.values.items()}
            assert client.get(f"{url.path}?{url.query}").status_code == 200


def test_the_first_question_link_reproduces_the_brief_numbers(client, content):
    url = urlsplit(client.get("/api/banks/").json()[0]["questions"][0]["calculator_url"])
    outputs = client.get(f"/api/calculators/prefill-decode/?{url.query}").json()["outputs"]
    assert outputs["flops_per_token"] == 140e9
    assert outputs["prefill_flops"] == 2.8e14

def test_healthz_answers_ok_without_touching_the_database(client, db, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert "no-store" in response["Cache-Control"]


def test_healthz_refuses_a_post(client):
    assert client.post("/healthz").status_code == 405


def test_the_database_is_the_one_database_url_names(db):
    """`.ci/run` runs the suite twice: on SQLite, then with DATABASE_URL on PostgreSQL."""
    import os

    from django.db import connection

    expected = "postgresql" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "sqlite"
    assert connection.vendor == expected
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 + 1")
        assert cursor.fetchone() == (2,)

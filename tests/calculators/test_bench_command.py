from io import StringIO

from django.core.management import call_command

from calculators.engine import registry


def test_the_benchmark_times_every_calculators_fragment():
    out = StringIO()
    call_command("bench_calculators", runs=25, stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["calculator", "median", "ms", "p95", "ms", "bytes"]
    rows = {line.split()[0]: line.split()[1:] for line in lines[1:-1]}
    assert list(rows) == [c.slug for c in registry.all_calculators()]
    for slug, (median, p95, size) in rows.items():
        assert 0 < float(median) <= float(p95), slug
        assert 1000 < int(size) < 20_000, slug  # a slider update stays well under 20 kB
    assert lines[-1].startswith("median of medians")


def test_make_bench_says_how_to_start_the_server_when_none_is_running():
    import socket

    import pytest
    from django.core.management.base import CommandError

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    with pytest.raises(CommandError, match=r"No server answers on 127\.0\.0\.1:\d+ .*Start one with `make serve`"):
        call_command("bench", port=port, stdout=StringIO())

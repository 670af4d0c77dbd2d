"""The ``kg build`` filter's progress line: the share done never goes back, the ETA reads
in seconds or minutes, and the last line says 100 %."""

import re

from kg.parallel import Progress, format_eta, format_progress


def test_given_eta_then_seconds_or_minutes_or_unknown():
    assert format_eta(None) == "?" and format_eta(float("nan")) == "?"
    assert format_eta(2.4) == "2 s" and format_eta(89) == "89 s"
    assert format_eta(600) == "10.0 min"


def test_given_progress_then_the_line_has_rate_share_and_eta():
    assert format_progress("filtering d.nt.gz", 200_000, 2.0, None) == "filtering d.nt.gz: 200,000 lines, 0.10 M lines/s"
    assert format_progress("filtering d.nt.gz", 200_000, 2.0, 0.25) == "filtering d.nt.gz: 200,000 lines, 0.10 M lines/s, 25.0 %, ETA 6 s"


def test_given_positions_then_the_share_is_monotone():
    p = Progress(False, "filtering", 1000, True)
    assert p.advance(0) is None  # nothing known yet
    shares = [p.advance(pos) for pos in (409, 0, 300, 936, 0, 2000)]
    assert shares == [0.409, 0.409, 0.409, 0.936, 0.936, 1.0]  # 0 = position unknown (decompressor gone): kept


def test_given_a_build_then_the_printed_shares_never_go_back_and_end_at_100(capsys, monkeypatch):
    clock = iter(float(t) for t in range(100))
    monkeypatch.setattr("kg.parallel.time.perf_counter", lambda: next(clock))
    p = Progress(True, "filtering d.nt.gz", 1000, True)
    for lines, pos in ((1000, 409), (5000, 0), (9000, 936), (12000, 0)):
        p(lines, pos)
    p.finish(13000)
    p.close()
    err = capsys.readouterr().err
    lines = [line.strip() for line in err.split("\r") if line.strip()]
    shares = [float(m.group(1)) for line in lines if (m := re.search(r"([0-9.]+) %", line))]
    assert shares == sorted(shares) and shares[-1] == 100.0, lines
    assert all("ETA ?" not in line for line in lines[1:]), lines
    assert err.endswith("\n")

"""The `--events` stream on the silent output (`--output null`).

On the null output the clock still runs in real time, so a script (or the
lyrics pane) can follow along with no audio device at all.
"""

from __future__ import annotations

import json

import pytest

from harness import assert_events_only

# Runs alone (scripts/e2e): it measures the spacing of position events.
pytestmark = pytest.mark.serial

GAP = 0.25      # the contract: a position event at least every 250 ms
JITTER = 0.03   # allowance for stamping events on arrival through a pipe


def test_position_events_are_regular_monotonic_and_follow_the_wall_clock(refrain, fixtures_dir):
    path = fixtures_dir / "tone440.mp3"
    run = refrain.play(path, "--output", "null", "--events", timeout=20)
    assert run.returncode == 0, run.stderr
    assert run.stderr.strip() == "", f"unexpected stderr: {run.stderr!r}"
    assert_events_only(run)

    kinds = [e.kind for e in run.events]
    assert kinds and kinds[0] == "start", f"first event: {run.summary()}"
    assert kinds.count("end") == 1 and kinds[-1] == "end", f"one end event, last: {run.summary()}"
    start = run.events[0]
    assert str(start["file"]).endswith("tone440.mp3")
    assert start["duration"] == pytest.approx(6.0, abs=0.05)

    pos = run.positions
    ts = [e["t"] for e in pos]
    assert all(b >= a for a, b in zip(ts, ts[1:])), f"positions went backwards: {ts}"
    assert ts[0] <= 0.3 and ts[-1] >= 5.7, f"positions cover {ts[0]}..{ts[-1]} of a 6 s track"
    # At least every 250 ms from start to end.
    stamps = [start.arrival] + [e.arrival for e in pos] + [run.of("end")[0].arrival]
    worst = max(b - a for a, b in zip(stamps, stamps[1:]))
    assert worst <= GAP + JITTER, f"{worst:.3f} s without a position event"
    # Position advances with the wall clock: drift over the run <= 100 ms.
    first = pos[0]
    span = [e for e in pos if e.arrival - first.arrival >= 5.0]
    assert span, "the positions did not span 5 s of wall-clock time"
    drift = max(abs((e["t"] - first["t"]) - (e.arrival - first.arrival)) for e in pos)
    assert drift <= 0.1, f"positions drift {drift:.3f} s from the wall clock"


def test_start_reports_the_true_duration_of_a_vbr_file_without_xing(refrain, fixtures_dir):
    """vbr-noxing.mp3 has no Xing/Info header; guessing from the first
    frame's bitrate says ~5 s, but it is 30 s long."""
    run = refrain.play(fixtures_dir / "vbr-noxing.mp3", "--output", "null", "--events", "--duration", 0.5, timeout=10)
    assert run.returncode == 0, run.stderr
    assert_events_only(run)
    start = run.of("start")
    assert start, run.summary()
    assert start[0]["duration"] == pytest.approx(30.0, abs=0.15)


def test_lyrics_option_emits_line_events_at_their_times(refrain, fixtures_dir):
    lrc = fixtures_dir / "lyrics-steps.lrc"
    run = refrain.play(fixtures_dir / "steps.mp3", "--output", "null", "--events", "--lyrics", lrc,
                       "--duration", 4.2, timeout=15)
    assert run.returncode == 0, run.stderr
    assert_events_only(run)
    lines = [e for e in run.of("line") if isinstance(e.get("index"), int) and e["index"] >= 0]
    assert [(e["index"], e["text"]) for e in lines] == [(0, "Line 1 하나 (350 Hz)"), (1, "Line 2 둘 (450 Hz)")], run.summary()
    for e, when in zip(lines, (1.0, 3.0)):
        assert e["t"] == pytest.approx(when, abs=0.1)
        # The event arrives when the position gets there, not on the next tick.
        before = [p for p in run.positions if p.arrival <= e.arrival]
        if before:
            assert before[-1]["t"] <= when + 0.1


@pytest.mark.parametrize("name", ["tags-v23.mp3", "tags-v24.mp3"])
def test_embedded_lyrics_are_used_without_a_lyrics_file(refrain, fixtures_dir, name):
    """The lyrics sources (DESIGN.md) include the ID3 USLT frame; the
    fixtures carry "[00:01.00]첫 줄\\n[00:02.50]둘째 줄" in UTF-16 (v2.3) and UTF-8 (v2.4)."""
    run = refrain.play(fixtures_dir / name, "--output", "null", "--events", timeout=12)
    assert run.returncode == 0, run.stderr
    assert_events_only(run)
    lines = [(e["index"], e["text"], e["t"]) for e in run.of("line")
             if isinstance(e.get("index"), int) and e["index"] >= 0]
    assert [(i, text) for i, text, _ in lines] == [(0, "첫 줄"), (1, "둘째 줄")], run.summary()
    assert [t for _, _, t in lines] == pytest.approx([1.0, 2.5], abs=0.1)
    start = run.of("start")[0]
    assert start["duration"] == pytest.approx(3.0, abs=0.05)


def test_every_start_gets_exactly_one_end_with_its_reason(refrain_bin, tmp_path):
    """Two tracks cut by --start/--duration, then a skip and a quit: one `end` per `start`."""
    import subprocess
    from pathlib import Path
    sample = Path(__file__).resolve().parents[2] / "Resources" / "sample" / "refrain-sample.mp3"
    cut = subprocess.run([str(refrain_bin), "play", str(sample), str(sample), "--output", "null", "--events",
                          "--start", "13", "--duration", "3"],
                         capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    events = [json.loads(line) for line in cut.stdout.splitlines()]
    ends = [e for e in events if e["event"] == "end"]
    starts = [e for e in events if e["event"] == "start"]
    assert len(starts) == 2 and [e["reason"] for e in ends] == ["finished", "finished"], cut.stdout

    proc = subprocess.Popen([str(refrain_bin), "play", str(sample), str(sample), "--output", "null", "--events"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()
    assert json.loads(first)["event"] == "start", first
    proc.stdin.write("next\n")
    proc.stdin.flush()
    seen = []
    while True:
        event = json.loads(proc.stdout.readline())
        seen.append(event)
        if event["event"] == "start":
            break
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    out, _ = proc.communicate(timeout=15)
    seen += [json.loads(line) for line in out.splitlines()]
    assert [e["reason"] for e in seen if e["event"] == "end"] == ["skipped", "quit"], seen


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP", "SIGINT"])
def test_a_signal_ends_refrain_play_as_quit_does(refrain_bin, name):
    """SIGTERM, SIGHUP (the terminal closed) and SIGINT end the run cleanly: the track gets
    its `end` with reason `quit`, and the process exits on its own."""
    import signal
    import subprocess
    from pathlib import Path
    sample = Path(__file__).resolve().parents[2] / "Resources" / "sample" / "refrain-sample.mp3"
    proc = subprocess.Popen([str(refrain_bin), "play", str(sample), "--output", "null", "--events"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()
    assert json.loads(first)["event"] == "start", first
    proc.send_signal(getattr(signal, name))
    out, err = proc.communicate(timeout=10)
    ends = [json.loads(line) for line in out.splitlines() if json.loads(line)["event"] == "end"]
    assert ends == [{"event": "end", "reason": "quit"}], (out, err)
    assert proc.returncode == 0, err

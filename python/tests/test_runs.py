"""abrsim.run and abrsim.compare return the same tables the command line writes, as DataFrames."""

import io
import json
import os
import subprocess
from pathlib import Path

import pandas as pd
import pytest

import abrsim
from conftest import REPOSITORY, TRACES, VIDEO

SCENARIO = REPOSITORY / "scenarios" / "wifi-lte-3g.json"


def cli():
    for configuration in ("debug", "release"):
        binary = REPOSITORY / ".build" / configuration / "abrsim"
        if binary.exists():
            return str(binary)
    pytest.fail("the abrsim binary is not built (scripts/test-python builds it)")


def read(path):
    return pd.read_csv(path, keep_default_na=False, na_values=[""])


def test_run_from_a_path_equals_the_command_line(tmp_path):
    tables = abrsim.run(SCENARIO)
    assert set(tables) == {"summary", "segments", "timeline", "access_log", "capacity"}
    subprocess.run([cli(), "run", str(SCENARIO), "--out", str(tmp_path / "out")], check=True, capture_output=True)
    for name, frame in tables.items():
        pd.testing.assert_frame_equal(frame, read(tmp_path / "out" / f"{name}.csv"))
    assert tables.summary.player.tolist() == ["main"]
    assert len(tables.segments) == tables.summary.segments.iloc[0] + tables.summary.abandoned_count.iloc[0]
    assert tables.segments.bytes.sum() == tables.summary.bytes.iloc[0]


def test_a_chunked_live_run_hands_back_the_command_lines_chunk_rows(tmp_path):
    scenario = REPOSITORY / "scenarios" / "ci" / "live" / "chunked-latency.json"
    tables = abrsim.run(scenario)
    assert set(tables) == {"summary", "segments", "timeline", "access_log", "capacity", "chunks"}
    subprocess.run([cli(), "run", str(scenario), "--out", str(tmp_path / "out")], check=True, capture_output=True)
    pd.testing.assert_frame_equal(tables.chunks, read(tmp_path / "out" / "chunks.csv"))
    # One 1000 kbit/s rung of 2 s segments in 0.5 s chunks: four 0.5 Mbit chunks per segment.
    assert len(tables.chunks) == 4 * len(tables.segments)
    assert (tables.chunks.bits == 500_000).all()


def test_run_from_a_dict_equals_the_file():
    scenario = json.loads(SCENARIO.read_text())
    from_dict = abrsim.run(scenario, base_dir=SCENARIO.parent)
    from_file = abrsim.run(str(SCENARIO))
    for name in from_file:
        pd.testing.assert_frame_equal(from_dict[name], from_file[name])


def test_relative_paths_in_a_dict_resolve_against_the_current_folder(monkeypatch):
    monkeypatch.chdir(SCENARIO.parent)
    scenario = json.loads(SCENARIO.read_text())
    assert abrsim.run(scenario).summary.equals(abrsim.run(SCENARIO.name).summary)


def test_seed_changes_only_what_is_random():
    scenario = json.loads(SCENARIO.read_text())
    a = abrsim.run(scenario, base_dir=SCENARIO.parent, seed=7)
    b = abrsim.run(scenario, base_dir=SCENARIO.parent, seed=7)
    pd.testing.assert_frame_equal(a.segments, b.segments)


def test_compare_equals_the_command_line(tmp_path):
    traces = sorted(str(p) for p in TRACES.iterdir())[:3]
    policies = ["bba", "throughput(safety=0.9)"]
    tables = abrsim.compare(traces, VIDEO, policies, profile="pensieve", jobs=2)
    assert set(tables) == {"summary", "segments", "stats"}
    command = [cli(), "compare", "--content", str(VIDEO), "--policies", ",".join(policies), "--profile",
               "pensieve", "--out", str(tmp_path / "out"), "--jobs", "1", "--traces", *traces]
    subprocess.run(command, check=True, capture_output=True)
    for name, frame in tables.items():
        pd.testing.assert_frame_equal(frame, read(tmp_path / "out" / f"{name}.csv"))
    assert len(tables.summary) == 6 and len(tables.segments) == 6 * 48


def test_compare_bad_policy_names_the_place():
    with pytest.raises(abrsim.InputError, match="policies"):
        abrsim.compare(str(TRACES), VIDEO, ["no-such-policy"], profile="pensieve")
    with pytest.raises(abrsim.InputError, match="baseline"):
        abrsim.compare(str(TRACES), VIDEO, ["bba"], profile="pensieve", baseline="mpc")


def test_sweep_equals_the_command_line(tmp_path):
    traces = sorted(str(p) for p in TRACES.iterdir())[:2]
    policies = ["bba(reservoir=5..10:5)", "throughput"]
    tables = abrsim.sweep(SCENARIO, traces=traces, policies=policies, jobs=2)
    command = [cli(), "sweep", str(SCENARIO), "--policies", ",".join(policies), "--out", str(tmp_path / "out"),
               "--jobs", "1", "--traces", *traces]
    subprocess.run(command, check=True, capture_output=True)
    for name, frame in tables.items():
        pd.testing.assert_frame_equal(frame, read(tmp_path / "out" / f"{name}.csv"))
    assert len(tables.summary) == 2 * 3
    assert tables.summary.policy.tolist().count("throughput") == 2


def test_sweep_into_a_folder_without_segments(tmp_path):
    tables = abrsim.sweep(json.loads(SCENARIO.read_text()), base_dir=SCENARIO.parent, policies=["bba", "bola"],
                          segments=False, out=tmp_path / "s", jobs=1)
    assert set(tables) == {"summary"} and len(tables.summary) == 2
    assert (tmp_path / "s" / "summary.csv").exists()
    with pytest.raises(abrsim.InputError, match="policies"):
        abrsim.sweep(SCENARIO, policies=["bba(reservoir=oops)"])


FEED = REPOSITORY / "Tests" / "Fixtures" / "feed" / "compare-feed.json"


def test_a_feed_run_hands_back_the_command_lines_item_and_feed_rows(tmp_path):
    tables = abrsim.run(FEED)
    assert {"items", "feed"} <= set(tables)
    subprocess.run([cli(), "run", str(FEED), "--out", str(tmp_path / "out")], check=True, capture_output=True)
    for name in ("items", "feed", "segments", "summary"):
        pd.testing.assert_frame_equal(tables[name], read(tmp_path / "out" / f"{name}.csv"))
    # Five items (two listed, cycled); the session's bytes are its items' bytes.
    assert tables["items"].item.tolist() == ["a-0", "b-1", "a-2", "b-3", "a-4"]
    assert tables.feed.bytes.iloc[0] == tables["items"].bytes.sum()


def test_a_feed_sweep_hands_back_the_command_lines_feed_tables(tmp_path):
    tables = abrsim.sweep(FEED, policies=["throughput", "bba"], jobs=2)
    subprocess.run(
        [cli(), "sweep", str(FEED), "--policies", "throughput,bba", "--out", str(tmp_path / "out")],
        check=True, capture_output=True)
    for name in ("summary", "segments", "feed", "items"):
        pd.testing.assert_frame_equal(tables[name], read(tmp_path / "out" / f"{name}.csv"))
    assert tables.feed.policy.tolist() == ["throughput", "bba"]

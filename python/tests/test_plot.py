"""abrsim.plot.timeline draws the SVG timeline's panels from the run's DataFrames."""

import matplotlib

matplotlib.use("Agg")

import json

import numpy as np

import abrsim
import abrsim.plot
from conftest import REPOSITORY

SCENARIO = REPOSITORY / "scenarios" / "wifi-lte-3g.json"


def test_timeline_panels_from_the_tables(tmp_path):
    scenario = json.loads(SCENARIO.read_text())
    scenario["players"][0]["policy"] = "bba"  # it stalls on this walk
    tables = abrsim.run(scenario, base_dir=SCENARIO.parent)
    figure = abrsim.plot.timeline(tables)
    throughput, bitrate, buffer, states = figure.axes
    assert [a.get_title() for a in figure.axes] == [
        "Link capacity and each player's share", "Chosen bitrate (variant requested)",
        "Forward buffer (stalls shaded)", "isPlaybackLikelyToKeepUp (band) and playback state (strip)"]
    steps = bitrate.get_lines()[0]
    segments = tables.segments
    assert np.allclose(steps.get_xdata()[:-1], segments.request_s)
    assert np.allclose(steps.get_ydata()[:-1], segments.bitrate_kbps / 1000)
    line = buffer.get_lines()[0]
    assert np.allclose(line.get_xdata(), tables.timeline.t_s) and np.allclose(line.get_ydata(), tables.timeline.buffer_s)
    # one shaded span per stall on each of the first three panels
    stall_starts = (tables.timeline.state == "buffering") & (tables.timeline.state.shift() != "buffering")
    expected = int(stall_starts.sum())
    assert expected > 0
    for axis in (throughput, bitrate, buffer):
        assert sum(1 for p in axis.patches if p.get_alpha() == 0.15) == expected
    assert len(throughput.collections) >= 1  # the capacity area
    figure.savefig(tmp_path / "timeline.png")
    assert (tmp_path / "timeline.png").stat().st_size > 10_000

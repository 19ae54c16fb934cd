"""``abrsim.plot.timeline(tables)``: the session timeline as a matplotlib figure, with the SVG timeline's panels
(``TimelinePlot``): 1. link capacity (grey, from the ``capacity`` table when present) and each player's share of
it, Mbit/s; 2. the chosen bitrate as steps from each request on, Mbit/s; 3. the forward buffer, s; stalls
(``buffering``) shaded on panels 1–3; 4. per player, ``isPlaybackLikelyToKeepUp`` as a band and the playback
state as a coloured strip. Needs matplotlib (``scripts/setup`` installs it into the project's venv)."""

import numpy as np

STATE_COLOURS = {
    "idle": "#dddddd", "loading": "#9ecae1", "readyToPlay": "#c6dbef", "playing": "#74c476", "paused": "#fdd0a2",
    "buffering": "#fb6a4a", "ended": "#969696", "failed": "#000000",
}


def _intervals(times, flags, end):
    """(start, stop) pairs where ``flags`` holds, the flag at ``times[i]`` lasting until ``times[i+1]``."""
    spans, start = [], None
    for t, flag in zip(list(times) + [end], list(flags) + [False]):
        if flag and start is None:
            start = t
        elif not flag and start is not None:
            spans.append((start, t))
            start = None
    return spans


def timeline(tables, player=None):
    """A figure of the run's timeline from ``abrsim.run``'s tables (or a dict of DataFrames with ``timeline`` and
    ``segments``, and optionally ``capacity``); ``player`` limits it to one player id."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    timeline_rows, segments = tables["timeline"], tables["segments"]
    capacity = tables.get("capacity") if hasattr(tables, "get") else None
    players = [player] if player is not None else list(dict.fromkeys(timeline_rows.player))
    end = float(timeline_rows.t_s.max()) if len(timeline_rows) else 0.0
    figure, axes = plt.subplots(4, 1, sharex=True, figsize=(11, 8.5),
                                gridspec_kw={"height_ratios": [3, 2, 2, 0.6 + 0.4 * len(players)]})
    throughput_axis, bitrate_axis, buffer_axis, state_axis = axes
    throughput_axis.set_title("Link capacity and each player's share")
    throughput_axis.set_ylabel("Mbit/s")
    bitrate_axis.set_title("Chosen bitrate (variant requested)")
    bitrate_axis.set_ylabel("Mbit/s")
    buffer_axis.set_title("Forward buffer (stalls shaded)")
    buffer_axis.set_ylabel("seconds")
    state_axis.set_title("isPlaybackLikelyToKeepUp (band) and playback state (strip)")
    state_axis.set_xlabel("time (s)")
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    if capacity is not None and len(capacity):
        times = capacity.t_s.to_numpy()
        rates = capacity.capacity_kbps.to_numpy() / 1000
        throughput_axis.fill_between(times, rates, step="post", color="#bbbbbb", label="capacity")
    for position, name in enumerate(players):
        colour = colours[position % len(colours)]
        rows = timeline_rows[timeline_rows.player == name]
        stalls = _intervals(rows.t_s, rows.state == "buffering", end)
        for axis in (throughput_axis, bitrate_axis, buffer_axis):
            for start, stop in stalls:
                axis.axvspan(start, stop, color="#fb6a4a", alpha=0.15, linewidth=0)
        if capacity is not None and len(capacity):
            capacity_at = np.interp(rows.t_s, times, rates)  # capacity is a step function; close at the rows
            throughput_axis.step(rows.t_s, rows.link_share * capacity_at, where="post", color=colour, label=name)
        chosen = segments[segments.player == name]
        bitrate_axis.step(list(chosen.request_s) + [end], list(chosen.bitrate_kbps / 1000) +
                          [chosen.bitrate_kbps.iloc[-1] / 1000 if len(chosen) else 0], where="post", color=colour,
                          label=name)
        buffer_axis.plot(rows.t_s, rows.buffer_s, color=colour, label=name)
        base = len(players) - 1 - position
        for start, stop in _intervals(rows.t_s, rows.likely_to_keep_up.astype(bool), end):
            state_axis.broken_barh([(start, stop - start)], (base + 0.55, 0.35), color=colour, alpha=0.6)
        states = list(rows.state)
        starts = list(rows.t_s)
        for index, state in enumerate(states):
            stop = starts[index + 1] if index + 1 < len(starts) else end
            state_axis.broken_barh([(starts[index], stop - starts[index])], (base + 0.1, 0.4),
                                   color=STATE_COLOURS.get(state, "#000000"))
    state_axis.set_yticks([len(players) - 1 - i + 0.5 for i in range(len(players))], players)
    state_axis.set_ylim(0, len(players))
    for axis in (throughput_axis, bitrate_axis, buffer_axis):
        axis.legend(loc="upper right", fontsize="small")
    figure.tight_layout()
    return figure

#!/usr/bin/env python3
"""Checks the accounting invariants of a long run's CSV output (docs/reliability/long-runs.md).

Usage: scripts/check-long-run.py RESULTS_DIR CONTENT_SECONDS START_STAGGER_S

- buffer_s >= 0 on every timeline row; buffer_before_s, buffer_after_s >= 0 on every segment row;
- every player downloaded segments 0..n-1 once each (abandoned and timed-out rows aside);
- played_s = content - skipped_s, exactly in integer microseconds;
- stall time from the timeline's buffering intervals (math.fsum, exactly rounded) = stall_s + seek_wait_s, 1e-6 s;
- end_s - start = startup_s + stall_s + seek_wait_s + played_s, within 1e-6 s (rate 1, no pauses).
Prints the largest deviations and exits 1 on a violation.
"""
import csv, math, sys
from collections import defaultdict

results, content, stagger = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
us = lambda x: round(float(x) * 1e6)
bad = []
summary = list(csv.DictReader(open(f"{results}/summary.csv")))
rows = defaultdict(list)
min_buffer = math.inf
for r in csv.DictReader(open(f"{results}/timeline.csv")):
    b = float(r["buffer_s"])
    min_buffer = min(min_buffer, b)
    if b < 0: bad.append(f"negative buffer {b} at {r['t_s']} ({r['player']})")
    rows[r["player"]].append((float(r["t_s"]), r["state"]))
segments = defaultdict(list)
for r in csv.DictReader(open(f"{results}/segments.csv")):
    for key in ("buffer_before_s", "buffer_after_s"):
        if float(r[key]) < 0: bad.append(f"negative {key} for segment {r['segment']} ({r['player']})")
    if r["abandoned"] != "true": segments[r["player"]].append(int(r["segment"]))
worst_time = worst_stall = 0.0
for i, s in enumerate(summary):
    p = s["player"]
    if segments[p] != list(range(len(segments[p]))): bad.append(f"{p}: segments out of order or repeated")
    if us(s["played_s"]) != us(content) - us(s["skipped_s"]):
        bad.append(f"{p}: played {s['played_s']} s, content {content} s, skipped {s['skipped_s']} s")
    timeline = rows[p]
    stall = math.fsum(b[0] - a[0] for a, b in zip(timeline, timeline[1:]) if a[1] == "buffering")
    d = abs(stall - float(s["stall_s"]) - float(s["seek_wait_s"]))
    worst_stall = max(worst_stall, d)
    if d > 1e-6: bad.append(f"{p}: stall {s['stall_s']} s in summary, {stall} s in timeline")
    session = float(s["end_s"]) - i * stagger
    accounted = float(s["startup_s"]) + float(s["stall_s"]) + float(s["seek_wait_s"]) + float(s["played_s"])
    worst_time = max(worst_time, abs(session - accounted))
    if abs(session - accounted) > 1e-6: bad.append(f"{p}: session {session} s, accounted {accounted} s")
print(f"players {len(summary)}, timeline rows {sum(map(len, rows.values()))}, min buffer_s {min_buffer}")
print(f"max |session - (startup + stalls + played)| = {worst_time:.3e} s; max stall mismatch = {worst_stall:.3e} s")
for line in bad[:20]: print("VIOLATION", line)
sys.exit(1 if bad else 0)

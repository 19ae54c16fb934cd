"""The loop from Python, nothing heavy: a Gymnasium episode on a scenario, its DataFrames, and the timeline plot.

    ./scripts/setup && swift build --product ABRSimC && .build/python-venv/bin/pip install ./python
    ABRSIM_LIBRARY=.build/debug/libABRSimC.so .build/python-venv/bin/python examples/gym_loop.py [OUT.png]

1. ``ABREnv`` on scenarios/wifi-lte-3g.json, the agent being a tiny buffer rule written here (no training);
2. the episode's tables as DataFrames, next to ``abrsim.run`` with the built-in ``throughput`` policy;
3. ``abrsim.plot.timeline`` of the episode, saved as a PNG.
"""

import sys
from pathlib import Path

import abrsim
import abrsim.plot
from abrsim.gym import ABREnv

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "scenarios" / "wifi-lte-3g.json"


def agent(observation, variant_count):
    """Higher variants as the buffer grows: one rung per 3 s above 6 s."""
    return max(0, min(variant_count - 1, int((float(observation["buffer_s"]) - 6) // 3)))


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("gym_loop.png")
    env = ABREnv(SCENARIO, agent_players=["main"])
    observation, info = env.reset(seed=1)
    episode_return, steps = 0.0, 0
    while True:
        observation, reward, terminated, truncated, info = env.step(agent(observation, env.action_space.n))
        episode_return += reward
        steps += 1
        if terminated or truncated:
            break
    tables = env.tables()
    print(f"{steps} decisions, return {episode_return:.2f} (qoe_lin {tables.summary.qoe_lin.iloc[0]:.2f})")
    print(tables.summary[["player", "policy", "segments", "stall_s", "avg_bitrate_kbps", "qoe_lin"]])
    baseline = abrsim.run(SCENARIO)
    print(baseline.summary[["player", "policy", "segments", "stall_s", "avg_bitrate_kbps", "qoe_lin"]])
    abrsim.plot.timeline(tables).savefig(out, dpi=80)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()

"""Side-by-side speed of ABRSim's Gymnasium environments and pensieve-ppo's, on the same traces and actions,
in one process (one core): see scripts/bench-gym."""

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np

import abrsim.gym
import pensieve_ppo.quality_ladder  # noqa: F401  (registers the 'ppo' environment)
from pensieve_ppo.agent import create_env
from pensieve_ppo.quality_ladder import QualityLadderRequest

CHUNKS = 48


def plan(episodes, seed):
    rng = random.Random(seed)
    return [[1] + [rng.randrange(6) for _ in range(CHUNKS - 1)] for _ in range(episodes)]


def ppo_env(traces, video):
    return create_env(name="ppo", trace_folder=str(traces), train=False,
                      player_kwargs={"video_size_file_prefix": str(video) + "/video_size_"})


def time_ppo_env(traces, video, actions):
    env = ppo_env(traces, video)
    requests = [[QualityLadderRequest(a) for a in episode] for episode in actions]
    total = 0.0
    start = time.perf_counter()
    for episode in requests:
        env.reset()
        for request in episode:
            total += env.step(request)[1]
    return time.perf_counter() - start, total


def time_ppo_simulator(traces, video, actions):
    env = ppo_env(traces, video)
    simulator = env.simulator
    requests = [[QualityLadderRequest(a) for a in episode] for episode in actions]
    start = time.perf_counter()
    for episode in requests:
        for request in episode:
            simulator.step(request)
    return time.perf_counter() - start, None


def time_pensieve_env(traces, video, actions):
    env = abrsim.gym.PensieveEnv(trace_folder=traces, video_size_folder=video)
    total = 0.0
    start = time.perf_counter()
    for episode in actions:
        env.reset()
        for level in episode:
            total += env.step(level)[1]
    return time.perf_counter() - start, total


def time_vector_env(traces, video, actions, n, episodes_each):
    """n environments, each playing `episodes_each` episodes of the same action plan (environment i starts at
    episode i), one vector step per chunk plus Gymnasium's autoreset step after each episode. Only chunk steps
    are counted."""
    env = abrsim.gym.VectorABREnv(n, trace_folder=traces, video_size_folder=video)
    env.reset()
    columns = []
    for i in range(n):
        column = []
        for e in range(episodes_each):
            column += actions[(i + e) % len(actions)] + [0]
        columns.append(column)
    matrix = np.array(columns, dtype=np.int64).T.copy()
    start = time.perf_counter()
    for row in matrix:
        env.step(row)
    seconds = time.perf_counter() - start
    return seconds, n * episodes_each * CHUNKS


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--traces", type=Path, required=True)
    parser.add_argument("--video", type=Path, required=True)
    parser.add_argument("--episodes", type=int, default=142)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--num-envs", type=int, default=512)
    parser.add_argument("--vector-episodes", type=int, default=10, help="episodes per vector environment")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    actions = plan(arguments.episodes, arguments.seed)
    steps = sum(len(e) for e in actions)
    names = ["pensieve-ppo ABREnv.step", "pensieve-ppo Simulator.step", "abrsim PensieveEnv.step",
             f"abrsim VectorABREnv({arguments.num_envs}).step"]
    rates = {name: [] for name in names}
    for round_index in range(arguments.rounds):
        seconds, ppo_total = time_ppo_env(arguments.traces, arguments.video, actions)
        rates[names[0]].append(steps / seconds)
        seconds, _ = time_ppo_simulator(arguments.traces, arguments.video, actions)
        rates[names[1]].append(steps / seconds)
        seconds, ours_total = time_pensieve_env(arguments.traces, arguments.video, actions)
        rates[names[2]].append(steps / seconds)
        if abs(ours_total - ppo_total) > 1e-6 * max(1.0, abs(ppo_total)):
            sys.exit(f"bench-gym: total rewards differ: abrsim {ours_total!r}, pensieve-ppo {ppo_total!r}")
        seconds, vector_steps = time_vector_env(
            arguments.traces, arguments.video, actions, arguments.num_envs, arguments.vector_episodes)
        rates[names[3]].append(vector_steps / seconds)
    print(f"{arguments.episodes} episodes × {CHUNKS} steps = {steps} steps per run, {arguments.rounds} rounds "
          f"interleaved, one process; total reward equal on both sides ({ppo_total:.6f})")
    print(f"{'what':40} {'median steps/s':>15} {'best':>12}")
    for name in names:
        print(f"{name:40} {statistics.median(rates[name]):15,.0f} {max(rates[name]):12,.0f}")
    env_ratio = statistics.median(rates[names[2]]) / statistics.median(rates[names[0]])
    vector_ratio = statistics.median(rates[names[3]]) / statistics.median(rates[names[1]])
    print(f"PensieveEnv / pensieve-ppo ABREnv.step: {env_ratio:.1f}× (target ≥ 10×)")
    print(f"VectorABREnv / pensieve-ppo Simulator.step: {vector_ratio:.1f}× (target ≥ 10×)")


if __name__ == "__main__":
    main()

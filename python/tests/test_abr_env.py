"""abrsim.gym.ABREnv: a scenario on the full model stepped decision by decision."""

import json

import numpy as np
import pandas as pd
import pytest

import abrsim
from abrsim.gym import ABREnv
from conftest import REPOSITORY

SCENARIO = REPOSITORY / "scenarios" / "wifi-lte-3g.json"
MULTIVIEW = REPOSITORY / "scenarios" / "multiview-priority.json"


def bba(buffer, variant_count, max_variant):
    """BBA-0, reservoir 5 s, cushion 10 s: the built-in bba's arithmetic."""
    top = variant_count - 1
    if buffer < 5:
        rung = 0
    elif buffer >= 15:
        rung = top
    else:
        rung = min(int(top * (buffer - 5) / 10), top)
    return max(0, min(rung, max_variant))


def play(env, policy):
    observation, info = env.reset()
    rewards, steps = [], 0
    while True:
        action = policy(observation, info)
        observation, reward, terminated, truncated, info = env.step(action)
        assert not truncated
        rewards.append(reward)
        steps += 1
        if terminated:
            return rewards, steps


def test_stepping_bba_equals_running_bba_and_rewards_add_up_to_qoe_lin():
    scenario = json.loads(SCENARIO.read_text())
    scenario["players"][0]["policy"] = "agent"
    env = ABREnv(scenario, base_dir=SCENARIO.parent)
    n = env.action_space.n
    assert n == 9
    rewards, steps = play(env, lambda o, i: bba(float(o["buffer_s"]), n, i["max_variant"]))
    tables = env.tables()
    scenario["players"][0]["policy"] = "bba"
    builtin = abrsim.run(scenario, base_dir=SCENARIO.parent)
    for name in builtin:
        pd.testing.assert_frame_equal(tables[name].drop(columns=["policy"], errors="ignore"),
                                      builtin[name].drop(columns=["policy"], errors="ignore"))
    assert steps == len(builtin.segments)
    assert sum(rewards) == pytest.approx(builtin.summary.qoe_lin.iloc[0], abs=1e-9)
    assert builtin.summary.stall_s.iloc[0] > 0  # the stall terms were exercised


def test_observation_dict():
    env = ABREnv(SCENARIO, agent_players=["main"])
    observation, info = env.reset()
    assert env.observation_space.contains(observation)
    assert observation["segments_left"] == 100 and observation["last_bitrate_kbps"] == 0
    assert not observation["throughput_kbps"].any() and info["last_variant"] is None
    for _ in range(3):
        observation, reward, terminated, _, info = env.step(2)
    assert observation["last_bitrate_kbps"] == 730 and observation["segments_left"] == 97
    assert (observation["throughput_kbps"][-3:] > 0).all() and not observation["throughput_kbps"][:-3].any()
    assert (observation["download_time_s"][-3:] > 0).all()
    assert observation["next_sizes_bytes"].shape == (9,) and (np.diff(observation["next_sizes_bytes"]) > 0).all()
    assert env.observation_space.contains(observation)


def test_step_after_done_raises_and_reset_restarts():
    env = ABREnv(SCENARIO, agent_players=["main"])
    rewards, steps = play(env, lambda o, i: 0)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    again, steps_again = play(env, lambda o, i: 0)
    assert again == rewards and steps_again == steps
    env.reset()
    env.step(1)
    env.reset()  # mid-episode: the old run is ended, a new one starts
    assert env.step(0)[0]["segments_left"] == 99


def test_bad_actions_and_scenarios():
    env = ABREnv(SCENARIO, agent_players=["main"])
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset()
    with pytest.raises(ValueError, match="out of range"):
        env.step(9)
    with pytest.raises(TypeError, match="integer"):
        env.step(0.5)
    env.step(0)
    with pytest.raises(abrsim.InputError, match="missing a player with the policy 'agent'"):
        ABREnv(SCENARIO)
    with pytest.raises(abrsim.InputError, match="agent_players"):
        ABREnv(SCENARIO, agent_players=["nobody"])
    scenario = json.loads(SCENARIO.read_text())
    scenario["players"][0]["policy"] = "agent"
    scenario["bogus"] = 1
    with pytest.raises(abrsim.InputError, match=r"<dict>: \$: .*bogus"):
        ABREnv(scenario, base_dir=SCENARIO.parent)


def test_multi_player_agent_controls_two_of_four_players():
    env = ABREnv(MULTIVIEW, agent_players=["main", "tile1"])
    observation, info = env.reset()
    asked = set()
    total = 0.0
    while True:
        asked.add(observation["player"])
        observation, reward, terminated, _, info = env.step(0 if observation["player"] == 1 else 3)
        total += reward
        if terminated:
            break
    assert asked == {0, 1}
    summary = env.tables().summary
    assert summary.policy.tolist() == ["agent", "agent", "throughput", "throughput"]
    assert total == pytest.approx(summary.qoe_lin.iloc[:2].sum(), abs=1e-9)

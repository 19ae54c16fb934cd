"""PensieveEnv against pensieve-ppo 3.9.0's environment, recorded step by step (Tests/Fixtures/reference/gym)."""

import random

import numpy as np
import pandas as pd
import pytest

from abrsim.gym import PensieveEnv
from conftest import REFERENCE, TRACES, TRAIN_REFERENCE, VIDEO

OBS = [f"obs_{i}_{j}" for i in range(6) for j in range(8)]


@pytest.fixture(scope="module")
def reference():
    return pd.read_csv(REFERENCE)


def actions(policy, trace_index):
    if policy == "const0":
        later = [0] * 47
    elif policy == "const5":
        later = [5] * 47
    else:
        rng = random.Random(trace_index)
        later = [rng.randrange(6) for _ in range(47)]
    return [1] + later


@pytest.mark.parametrize("policy", ["const0", "const5", "random"])
def test_every_step_equals_pensieve_ppo(reference, policy):
    rows = reference[reference.policy == policy].sort_values(["trace_index", "step"])
    env = PensieveEnv(trace_folder=TRACES, video_size_folder=VIDEO)
    traces = rows.trace_name.drop_duplicates().tolist()
    assert env.trace_names == traces  # sorted by name, as the reference walks them
    checked = 0
    for trace_index, trace_rows in rows.groupby("trace_index", sort=True):
        plan = actions(policy, trace_index)
        assert trace_rows.action.tolist() == plan
        observation, _ = env.reset()
        assert observation.shape == (6, 8) and observation.dtype == np.float32 and not observation.any()
        for step, (_, row) in enumerate(trace_rows.iterrows()):
            observation, reward, terminated, truncated, info = env.step(plan[step])
            expected = row[OBS].to_numpy(dtype=np.float64)
            np.testing.assert_allclose(observation.reshape(-1).astype(np.float64), expected, rtol=0, atol=1e-9)
            assert reward == pytest.approx(row.reward, abs=1e-9, rel=0)
            assert terminated == bool(row.done)
            assert truncated is False
            assert info["delay"] == pytest.approx(row.delay_ms, abs=1e-9, rel=0)
            assert info["sleep_time"] == pytest.approx(row.sleep_time_ms, abs=1e-9, rel=0)
            assert info["buffer_size"] == pytest.approx(row.buffer_size_s, abs=1e-9, rel=0)
            assert info["rebuffer"] == pytest.approx(row.rebuffer_s, abs=1e-9, rel=0)
            assert info["video_chunk_size"] == row.video_chunk_size
            assert info["video_chunk_remain"] == row.video_chunk_remain
            assert info["time_stamp"] == pytest.approx(row.time_stamp_ms, abs=1e-6, rel=0)
            assert info["quality"] == row.quality_kbps
            checked += 1
    assert checked == len(rows) == 14 * 48


def test_observation_layout_by_hand():
    """The first step's cells from the trace and video files, computed here in double then stored as float32."""
    env = PensieveEnv(trace_folder=TRACES, video_size_folder=VIDEO)
    env.reset()
    observation, reward, terminated, _, info = env.step(1)
    sizes = [[float(line) for line in (VIDEO / f"video_size_{k}").read_text().split()] for k in range(6)]
    delay = info["delay"]
    assert observation[0, 7] == np.float32(750 / 4300)
    assert observation[1, 7] == np.float32(4.0 / 10)  # empty buffer + one 4 s chunk
    assert observation[2, 7] == np.float32(sizes[1][0] / delay / 1000)
    assert observation[3, 7] == np.float32(delay / 1000 / 10)
    assert observation[4, :6].tolist() == [np.float32(sizes[k][1] / 1e6) for k in range(6)]
    assert observation[5, 7] == np.float32(47 / 48)
    assert not observation[:, :7][[0, 1, 2, 3, 5]].any() and not observation[4, 6:].any()
    assert reward == pytest.approx(0.75 - 4.3 * delay / 1000)  # the whole first download stalls, no smoothness
    assert not terminated


def test_step_after_done_raises_and_reset_continues():
    env = PensieveEnv(trace_folder=TRACES, video_size_folder=VIDEO)
    env.reset()
    for _ in range(47):
        assert not env.step(0)[2]
    assert env.step(0)[2]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset()
    _, _, _, _, info = env.step(1)
    assert info["video_chunk_remain"] == 47 and info["buffer_size"] == 4.0  # next trace, fresh buffer


def test_step_before_reset_raises():
    env = PensieveEnv(trace_folder=TRACES, video_size_folder=VIDEO)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("bad, error", [(6, ValueError), (-1, ValueError), (1.5, TypeError), ("2", TypeError),
                                        (None, TypeError)])
def test_bad_actions_raise(bad, error):
    env = PensieveEnv(trace_folder=TRACES, video_size_folder=VIDEO)
    env.reset()
    with pytest.raises(error, match="action"):
        env.step(bad)
    # the environment is untouched and still steps
    assert env.step(np.int64(1))[4]["video_chunk_remain"] == 47


def test_spaces():
    env = PensieveEnv(trace_folder=TRACES, video_size_folder=VIDEO)
    assert env.action_space.n == 6
    observation, _ = env.reset(seed=3)
    assert env.observation_space.contains(observation)
    assert env.observation_space.contains(env.step(env.action_space.sample())[0])


@pytest.mark.parametrize("run", ["seed42", "global7"])
def test_train_mode_equals_pensieve_ppo(run):
    """Training mode: random trace and start pointer per episode and noisy delays, from the same generators."""
    rows = pd.read_csv(TRAIN_REFERENCE)
    rows = rows[rows.run == run].sort_values(["episode", "step"])
    if run == "global7":
        np.random.seed(7)
        env = PensieveEnv(trace_folder=TRACES, video_size_folder=VIDEO, train=True)
    else:
        np.random.seed(0)  # the seeded generators must not depend on the global one
        env = PensieveEnv(trace_folder=TRACES, video_size_folder=VIDEO, train=True, random_seed=42)
    delays = []
    for _, episode in rows.groupby("episode", sort=True):
        env.reset()
        for _, row in episode.iterrows():
            observation, reward, terminated, _, info = env.step(int(row.action))
            np.testing.assert_allclose(observation.reshape(-1).astype(np.float64),
                                       row[OBS].to_numpy(dtype=np.float64), rtol=0, atol=1e-9)
            assert reward == pytest.approx(row.reward, abs=1e-9, rel=0)
            assert terminated == bool(row.done)
            assert info["delay"] == pytest.approx(row.delay_ms, abs=1e-9, rel=0)
            assert info["buffer_size"] == pytest.approx(row.buffer_size_s, abs=1e-9, rel=0)
            delays.append(info["delay"])
    assert len(delays) == 4 * 48
    test_mode = PensieveEnv(trace_folder=TRACES, video_size_folder=VIDEO)
    test_mode.reset()
    assert test_mode.step(1)[4]["delay"] != delays[0]  # the noise and start pointer changed the first download


def test_gymnasium_env_checker_and_seeded_restart():
    from gymnasium.utils.env_checker import check_env

    for train in (False, True):
        env = PensieveEnv(trace_folder=TRACES, video_size_folder=VIDEO, train=train, random_seed=3)
        check_env(env, skip_render_check=True)
        first = [env.reset(seed=11)[0]] + [env.step(k % 6)[0] for k in range(48)]
        again = [env.reset(seed=11)[0]] + [env.step(k % 6)[0] for k in range(48)]
        assert all(np.array_equal(a, b) for a, b in zip(first, again))

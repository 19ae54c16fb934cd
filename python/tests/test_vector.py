"""VectorABREnv: n Pensieve environments in one library call, each equal to a PensieveEnv, with next-step
autoreset."""

import numpy as np
import pytest

from abrsim.gym import PensieveEnv, VectorABREnv
from conftest import TRACES, VIDEO


def test_each_environment_equals_a_single_one_with_next_step_autoreset():
    n = 3
    vector = VectorABREnv(n, trace_folder=TRACES, video_size_folder=VIDEO)
    names = vector.trace_names
    observations, _ = vector.reset(seed=1)
    assert observations.shape == (n, 6, 8) and not observations.any()
    singles = [PensieveEnv(trace_folder=TRACES, video_size_folder=VIDEO) for _ in range(n)]
    for index, single in enumerate(singles):
        single.reset()
        for _ in range(index):  # environment i starts on trace i: play i whole episodes first
            for _ in range(48):
                single.step(0)
            single.reset()
    rng = np.random.default_rng(5)
    done = np.zeros(n, dtype=bool)
    episodes = 0
    for step in range(48 * 2 + 1):
        actions = rng.integers(0, 6, size=n)
        observations, rewards, terminations, truncations, _ = vector.step(actions)
        assert not truncations.any()
        for index, single in enumerate(singles):
            if done[index]:
                single.reset()
                assert not observations[index].any() and rewards[index] == 0 and not terminations[index]
                continue
            observation, reward, terminated, _, _ = single.step(int(actions[index]))
            assert np.array_equal(observation, observations[index])
            assert reward == rewards[index]
            assert terminated == terminations[index]
        episodes += int(terminations.sum())
        done = terminations.copy()
    assert episodes == 2 * n
    assert names == sorted(p.name for p in TRACES.iterdir())


def test_spaces():
    vector = VectorABREnv(4, trace_folder=TRACES, video_size_folder=VIDEO)
    observations, _ = vector.reset()
    assert vector.observation_space.contains(observations)
    assert vector.action_space.shape == (4,)
    assert vector.single_action_space.n == 6
    observations, *_ = vector.step(vector.action_space.sample())
    assert vector.observation_space.contains(observations)


def test_step_before_reset_raises():
    vector = VectorABREnv(2, trace_folder=TRACES, video_size_folder=VIDEO)
    with pytest.raises(RuntimeError, match="reset"):
        vector.step([0, 0])

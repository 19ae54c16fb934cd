"""Gymnasium environments on ABRSim's Pensieve model (``PensieveProfile``: Pensieve's chunk-level simulator,
operation for operation), stepped inside the library.

``PensieveEnv`` is ``pensieve-ppo``'s ABR environment in test mode, step for step: one episode per trace (the
trace folder's files sorted by name, wrapping round), 48 chunks, ``step(level)`` returning
``(observation, reward, terminated, truncated, info)``.

Observation: float32 array (6, 8), Pensieve's state. Every step each row shifts one column left (column 0 wraps
to column 7), then
- row 0, col 7: bitrate / 4300 (ladder 300, 750, 1200, 1850, 2850, 4300 kbit/s)
- row 1, col 7: buffer after the chunk, s / 10
- row 2, col 7: chunk bytes / download ms / 1000 (the download time includes the 80 ms RTT)
- row 3, col 7: download ms / 10 000
- row 4, cols 0..5: the next chunk's size at each level, MB (after the last chunk: chunk 0's); cols 6, 7 keep
  what the shift left there
- row 5, col 7: min(chunks left, 48) / 48
``reset()`` zeros it and forgets the last bitrate; the network and buffer carry on (as in ``pensieve-ppo``).

Reward: q − 4.3 · rebuffer s − |q − q_prev|, q = bitrate in Mbit/s; q_prev = q on the first step after reset.

``info``: ``delay`` (ms, with RTT), ``sleep_time`` (ms, as Pensieve's simulator returns it), ``buffer_size`` (s),
``rebuffer`` (s), ``video_chunk_size`` (bytes), ``video_chunk_remain``, ``time_stamp`` (ms since reset),
``quality`` (kbit/s).

``ABREnv(scenario, …)`` (``abrsim.scenario_env``) steps a scenario on the full model instead, the agent playing
the players whose policy is ``"agent"``, with a documented observation dict and the scenario's QoE as reward.

``VectorABREnv(num_envs, …)`` holds ``num_envs`` such environments (environment i starts on trace i mod the trace
count) and steps them all in one library call on numpy arrays, with Gymnasium's next-step autoreset.
"""

import ctypes
import operator
import os
from pathlib import Path

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv

from ._library import call_text, library
from .errors import InputError, raise_for

ROWS, COLUMNS = 6, 8
_INFO_KEYS = (
    "delay", "sleep_time", "buffer_size", "rebuffer", "video_chunk_size", "video_chunk_remain", "time_stamp",
    "quality",
)


def _trace_paths(trace_folder):
    folder = Path(trace_folder)
    if not folder.is_dir():
        raise InputError(f"{trace_folder}: trace_folder: not a folder", 2)
    paths = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    if not paths:
        raise InputError(f"{trace_folder}: trace_folder: holds no trace", 2)
    return paths


def _create(trace_folder, video_size_folder, count):
    if video_size_folder is None:
        raise InputError("video_size_folder: is required (a folder of video_size_0 … video_size_5)", 2)
    paths = _trace_paths(trace_folder)
    lib = library()
    handle = ctypes.c_void_p()
    status, data = call_text(
        lib.abrsim_pensieve_create,
        "\n".join(str(p) for p in paths).encode(),
        os.fsencode(video_size_folder),
        count,
        ctypes.byref(handle),
    )
    if status != 0:
        raise_for(status, data)
    return lib, handle, [p.name for p in paths]


def _check_level(action, levels, where="action"):
    try:
        level = operator.index(action)
    except TypeError:
        if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
            level = int(action)
        else:
            raise TypeError(f"{where}: must be an integer level 0..{levels - 1}, got {action!r}") from None
    if not 0 <= level < levels:
        raise ValueError(f"{where}: level {level} is out of range 0..{levels - 1}")
    return level


class PensieveEnv(gymnasium.Env):
    """``pensieve-ppo``'s ABR environment (test mode) on ABRSim's Pensieve model; see the module's documentation
    for the observation, reward and info. ``trace_folder``: Pensieve cooked traces (every file, sorted by name);
    ``video_size_folder``: ``video_size_0`` … ``video_size_5``. ``train=True`` is pensieve-ppo's training mode:
    each episode on a random trace from a random start pointer, every delay times uniform(0.9, 1.1), drawn as it
    draws them (``random_seed``: its two ``numpy.random.RandomState`` generators; None: the global one).
    ``reset(seed=s)`` seeds the global numpy generator, as pensieve-ppo's does."""

    metadata = {"render_modes": []}

    def __init__(self, trace_folder, video_size_folder=None, train=False, random_seed=None):
        super().__init__()
        self._lib, self._handle, self.trace_names = _create(trace_folder, video_size_folder, 1)
        self._train = bool(train)
        if self._train:
            # pensieve-ppo's training simulator: one generator for the delay noise and one for the trace and start
            # pointer (each numpy.random.RandomState(random_seed), or both the global numpy.random when None).
            seeded = random_seed is not None
            self._noise_rng = np.random.RandomState(random_seed) if seeded else np.random
            self._trace_rng = np.random.RandomState(random_seed) if seeded else np.random
            self._samples = [int(self._lib.abrsim_pensieve_trace_samples(self._handle, i))
                             for i in range(len(self.trace_names))]
            self._random_start()
        self._levels = int(self._lib.abrsim_pensieve_level_count(self._handle))
        self.observation_space = spaces.Box(0.0, np.inf, shape=(ROWS, COLUMNS), dtype=np.float32)
        self.action_space = spaces.Discrete(self._levels)
        self._state = np.zeros((ROWS, COLUMNS), dtype=np.float32)
        self._info = (ctypes.c_double * 9)()
        self._state_pointer = self._state.ctypes.data
        self._info_pointer = ctypes.addressof(self._info)
        self._step = self._lib.abrsim_pensieve_step
        self._done = False
        self._started = False

    def _random_start(self):
        trace = self._trace_rng.randint(len(self._samples))
        pointer = self._trace_rng.randint(1, self._samples[trace])
        self._lib.abrsim_pensieve_start(self._handle, 0, int(trace), int(pointer))

    def reset(self, *, seed=None, options=None):
        """Zeros the observation and forgets the last bitrate; returns ``(observation, info)``. The network and
        buffer carry on; a finished episode's next trace is already loaded. With ``seed`` the environment also
        restarts (first trace; training mode: its generators seeded with ``seed``)."""
        super().reset(seed=seed)
        if seed is not None:
            np.random.seed(seed)  # as pensieve-ppo's reset does
            # Beyond pensieve-ppo: a seed also restarts the environment, so that equal seeds give equal episodes
            # (Gymnasium's contract): the first trace from its start, or in training mode generators seeded anew.
            if self._train:
                self._noise_rng, self._trace_rng = np.random.RandomState(seed), np.random.RandomState(seed)
                self._random_start()
            else:
                self._lib.abrsim_pensieve_start(self._handle, 0, 0, 1)
        self._lib.abrsim_pensieve_reset(self._handle, 0, self._state_pointer)
        self._done = False
        self._started = True
        return self._state.copy(), {"time_stamp": 0.0}

    def step(self, action):
        """Downloads the next chunk at level ``action`` (an integer 0..5)."""
        if self._done or not self._started:
            raise RuntimeError(
                "PensieveEnv.step: the episode has ended; call reset() first" if self._done
                else "PensieveEnv.step: call reset() before the first step")
        level = action if type(action) is int and 0 <= action < self._levels else _check_level(action, self._levels)
        noise = self._noise_rng.uniform(0.9, 1.1) if self._train else 1.0
        done = self._step(self._handle, level, noise, self._state_pointer, self._info_pointer) == 1
        self._done = done
        if done and self._train:
            self._random_start()
        i = self._info
        info = {
            "delay": i[0], "sleep_time": i[1], "buffer_size": i[2], "rebuffer": i[3], "video_chunk_size": i[4],
            "video_chunk_remain": int(i[5]), "time_stamp": i[6], "quality": i[7],
        }
        return self._state.copy(), i[8], done, False, info

    def close(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            self._lib.abrsim_pensieve_destroy(handle)

    def __del__(self):
        self.close()


class VectorABREnv(VectorEnv):
    """``num_envs`` Pensieve environments (see ``PensieveEnv``) stepped together in one library call, following
    Gymnasium's vector API with next-step autoreset: the step after an environment's episode ends resets it (its
    action ignored; zero observation, reward 0). Environment i starts on trace i mod the number of traces.
    Actions: an integer array of shape (num_envs,), each 0..5."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(self, num_envs, trace_folder, video_size_folder=None):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise InputError(f"num_envs: must be an integer ≥ 1, got {num_envs!r}", 2)
        self._lib, self._handle, self.trace_names = _create(trace_folder, video_size_folder, num_envs)
        self.num_envs = num_envs
        self._levels = int(self._lib.abrsim_pensieve_level_count(self._handle))
        self.single_observation_space = spaces.Box(0.0, np.inf, shape=(ROWS, COLUMNS), dtype=np.float32)
        self.single_action_space = spaces.Discrete(self._levels)
        self.observation_space = spaces.Box(0.0, np.inf, shape=(num_envs, ROWS, COLUMNS), dtype=np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self._levels))
        self._states = np.zeros((num_envs, ROWS, COLUMNS), dtype=np.float32)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminated = np.zeros(num_envs, dtype=np.uint8)
        self._levels_buffer = np.zeros(num_envs, dtype=np.int64)
        self._bad = ctypes.c_int64()
        self._truncated = np.zeros(num_envs, dtype=bool)
        self._started = False

    def reset(self, *, seed=None, options=None):
        """Resets every environment; returns ``(observations, infos)``."""
        if seed is not None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seed)
        for index in range(self.num_envs):
            self._lib.abrsim_pensieve_reset(self._handle, index, self._states[index].ctypes.data)
        self._started = True
        return self._states.copy(), {}

    def step(self, actions):
        """Steps every environment; returns ``(observations, rewards, terminations, truncations, infos)``."""
        if not self._started:
            raise RuntimeError("VectorABREnv.step: call reset() before the first step")
        array = np.asarray(actions)
        if array.shape != (self.num_envs,):
            raise ValueError(f"actions: expected shape ({self.num_envs},), got {array.shape}")
        if not np.issubdtype(array.dtype, np.integer):
            raise TypeError(f"actions: must be integer levels 0..{self._levels - 1}, got dtype {array.dtype}")
        self._levels_buffer[:] = array
        status = self._lib.abrsim_pensieve_vector_step(
            self._handle, self._levels_buffer.ctypes.data, self._states.ctypes.data, self._rewards.ctypes.data,
            self._terminated.ctypes.data, ctypes.byref(self._bad))
        if status != 0:
            index = self._bad.value
            raise ValueError(
                f"actions[{index}]: level {int(array[index])} is out of range 0..{self._levels - 1}")
        return (self._states.copy(), self._rewards.copy(), self._terminated.astype(bool), self._truncated.copy(), {})

    def close(self, **kwargs):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            self._lib.abrsim_pensieve_destroy(handle)

    def __del__(self):
        self.close()


from .scenario_env import ABREnv  # noqa: E402  (the full-model environment; it uses _check_level above)

__all__ = ["ABREnv", "PensieveEnv", "VectorABREnv"]

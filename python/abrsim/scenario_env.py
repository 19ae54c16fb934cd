"""``abrsim.gym.ABREnv``: a scenario on ABRSim's full model, the agent choosing the variants of every player whose
policy is ``"agent"`` (several such players make a multi-player environment: ``observation["player"]`` says who
asks; the others keep their own policies and share the link by ``networkResourcePriority``).

Observation (a dict; ``H`` = 8 downloads of history, ``V`` = the ladder's size):
- ``player``: index of the asking player in the scenario's ``players``
- ``buffer_s``: media buffered ahead of the playhead, s
- ``last_bitrate_kbps``: the previous segment's bitrate (0 before the first)
- ``throughput_kbps`` (H): throughput of the last H downloads, oldest first, zeros in front when fewer
- ``download_time_s`` (H): their request-to-last-byte times
- ``next_sizes_bytes`` (V): the next segment's size at each variant
- ``segments_left``: segments not yet requested, this one included
- ``stall_s``: seconds stalled so far
- ``time_s``: simulated time of the decision
The scenarios have no live mode, so there is no live-latency entry.

Action: a variant index 0..V−1 (the player clamps it to its allowed maximum). Reward: the scenario's linear QoE
(``qoe`` weights): q(R) − λ·|Δq| for the chosen segment, less μ·stall since the player's previous decision; the
last step also carries the stall after the last decision and μₛ·startup. An episode's rewards add up to the agent
players' ``qoe_lin``. ``tables()`` gives the finished episode's DataFrames, as ``abrsim.run``.
"""

import ctypes
import json
import os
from pathlib import Path

import gymnasium
import numpy as np
from gymnasium import spaces

from ._library import call_text, library
from .errors import ABRSimError, InputError, raise_for
from .runs import _unframe

HISTORY = 8
_SCALARS = 9


def _declare(lib):
    if getattr(lib, "_gym_declared", False):
        return lib
    out = ctypes.POINTER(ctypes.c_void_p)
    size = ctypes.POINTER(ctypes.c_size_t)
    lib.abrsim_gym_create.restype = ctypes.c_int32
    lib.abrsim_gym_create.argtypes = [
        ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ssize_t, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64,
        ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_int64), out, size,
    ]
    lib.abrsim_gym_destroy.restype = None
    lib.abrsim_gym_destroy.argtypes = [ctypes.c_void_p]
    lib.abrsim_gym_reset.restype = ctypes.c_int32
    lib.abrsim_gym_reset.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64]
    lib.abrsim_gym_step.restype = ctypes.c_int32
    lib.abrsim_gym_step.argtypes = [
        ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, ctypes.POINTER(ctypes.c_double), out, size,
    ]
    lib.abrsim_gym_tables.restype = ctypes.c_int32
    lib.abrsim_gym_tables.argtypes = [ctypes.c_void_p, out, size]
    lib._gym_declared = True
    return lib


class ABREnv(gymnasium.Env):
    """A scenario stepped decision by decision; see the module's documentation. ``scenario``: a path or a dict
    (relative paths in a dict resolve against ``base_dir``, default the current folder); at least one player's
    policy must be ``"agent"``, or name the players with ``agent_players`` (ids) to hand them to the agent.
    ``seed`` replaces the scenario's seed (``reset(seed=…)`` too)."""

    metadata = {"render_modes": []}

    def __init__(self, scenario, agent_players=None, seed=None, base_dir=None):
        super().__init__()
        if isinstance(scenario, (str, os.PathLike)):
            path = Path(scenario)
            try:
                document = json.loads(path.read_text())
            except OSError as error:
                raise InputError(f"{scenario}: cannot be read: {error.strerror}", 2) from None
            except ValueError:
                document = None  # let the library report the syntax error with its line and column
            label, directory = str(path), str(path.parent)
        elif isinstance(scenario, dict):
            document, label = json.loads(json.dumps(scenario)), "<dict>"
            directory = os.fspath(base_dir) if base_dir is not None else os.getcwd()
        else:
            raise TypeError(f"scenario must be a path or a dict, not {type(scenario).__name__}")
        if document is not None and agent_players is not None:
            players = document.get("players") if isinstance(document, dict) else None
            ids = [p.get("id") for p in players] if isinstance(players, list) else []
            for name in agent_players:
                if name not in ids:
                    raise InputError(f"{label}: agent_players: no player has the id {name!r}", 2)
            for player in players:
                if player.get("id") in agent_players:
                    player["policy"] = "agent"
        self._lib = _declare(library())
        self._seed = seed
        self._document, self._label, self._directory = document, label, directory
        self._handle = None
        self._open(seed)
        v = self._variants
        self.action_space = spaces.Discrete(v)
        self.observation_space = spaces.Dict({
            "player": spaces.Discrete(1 << 16),
            "buffer_s": spaces.Box(0, np.inf, (), np.float64),
            "last_bitrate_kbps": spaces.Box(0, np.inf, (), np.float64),
            "throughput_kbps": spaces.Box(0, np.inf, (HISTORY,), np.float64),
            "download_time_s": spaces.Box(0, np.inf, (HISTORY,), np.float64),
            "next_sizes_bytes": spaces.Box(0, np.inf, (v,), np.float64),
            "segments_left": spaces.Discrete(1 << 31),
            "stall_s": spaces.Box(0, np.inf, (), np.float64),
            "time_s": spaces.Box(0, np.inf, (), np.float64),
        })
        self._values = np.zeros(_SCALARS + v + 2 * HISTORY, dtype=np.float64)
        self._reward = ctypes.c_double()
        self._state = "new"

    def _open(self, seed):
        if self._handle:
            self._lib.abrsim_gym_destroy(self._handle)
            self._handle = None
        handle, variants = ctypes.c_void_p(), ctypes.c_int64()
        seed_value = -1 if seed is None else int(seed)
        if self._document is None:
            arguments = (os.fsencode(self._label), None, 0, None, None)
        else:
            text = json.dumps(self._document, allow_nan=False).encode()
            arguments = (None, text, len(text), self._directory.encode(), self._label.encode())
        status, data = call_text(self._lib.abrsim_gym_create, *arguments, seed_value, ctypes.byref(handle),
                                 ctypes.byref(variants))
        if status != 0:
            raise_for(status, data)
        self._handle, self._variants = handle, int(variants.value)

    def _observation(self):
        s, v = self._values, self._variants
        return {
            "player": int(s[0]), "time_s": np.array(s[1]), "segments_left": int(s[3]), "buffer_s": np.array(s[4]),
            "last_bitrate_kbps": np.array(s[6]), "stall_s": np.array(s[8]),
            "next_sizes_bytes": s[_SCALARS:_SCALARS + v].copy(),
            "throughput_kbps": s[_SCALARS + v:_SCALARS + v + HISTORY].copy(),
            "download_time_s": s[_SCALARS + v + HISTORY:].copy(),
        }

    def _info(self):
        s = self._values
        return {"segment": int(s[2]), "last_variant": None if s[5] < 0 else int(s[5]), "max_variant": int(s[7])}

    def reset(self, *, seed=None, options=None):
        """Starts the scenario afresh (ending any episode in progress); returns ``(observation, info)``."""
        super().reset(seed=seed)
        if seed is not None and seed != self._seed:
            self._seed = seed
            self._open(seed)
        asks = self._lib.abrsim_gym_reset(self._handle, self._values.ctypes.data, self._variants)
        if asks != 1:
            raise ABRSimError("ABREnv.reset: the scenario ended before its agent players asked for a segment")
        self._state = "running"
        return self._observation(), self._info()

    def step(self, action):
        """Answers the waiting decision with variant ``action``; returns
        ``(observation, reward, terminated, truncated, info)``."""
        if self._state != "running":
            raise RuntimeError("ABREnv.step: the episode has ended; call reset() first" if self._state == "done"
                               else "ABREnv.step: call reset() before the first step")
        from .gym import _check_level
        level = _check_level(action, self._variants)
        buffer, length = ctypes.c_void_p(), ctypes.c_size_t()
        status = self._lib.abrsim_gym_step(self._handle, level, self._values.ctypes.data, self._variants,
                                           ctypes.byref(self._reward), ctypes.byref(buffer), ctypes.byref(length))
        if status >= 10:
            message = ctypes.string_at(buffer.value, length.value) if buffer.value else b""
            if buffer.value:
                self._lib.abrsim_free(buffer)
            self._state = "done"
            raise_for(status - 10, message)
        terminated = status == 0
        self._state = "done" if terminated else "running"
        return self._observation(), self._reward.value, terminated, False, self._info()

    def tables(self):
        """The finished episode's tables (``summary``, ``segments``, ``timeline``, ``access_log``)."""
        status, data = call_text(self._lib.abrsim_gym_tables, self._handle)
        if status != 0:
            raise RuntimeError(f"ABREnv.tables: {data.decode()}")
        return _unframe(data)

    def close(self):
        handle, self._handle = getattr(self, "_handle", None), None
        if handle:
            self._lib.abrsim_gym_destroy(handle)

    def __del__(self):
        self.close()

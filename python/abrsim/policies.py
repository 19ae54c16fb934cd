"""Python policies run in process: an object with ``decide(context)`` used as a policy by ``abrsim.run``.

Pass ``policies={"name": policy}`` and name it in the scenario (``"policy": "name"``). ``policy`` is either an
object with ``decide`` (shared by every player that names it) or a zero-argument callable, such as a class,
called once per player per run for a fresh instance. ``decide(context)`` returns a variant index (the player
clamps it to ``0..context.max_variant``) or ``abrsim.Wait(seconds)``. An exception in ``decide`` fails that player
(as an external policy that crashed does) and ``run`` raises it once the run is over.

``context`` (valid during the call only):
- ``time`` (s), ``segment_index``, ``buffer_seconds``, ``buffer_target_seconds``, ``playback_rate``
- ``last_variant`` (None before the first segment), ``max_variant``, ``start_variant``, ``variant_count``
- ``segment_count``, ``segment_duration`` (s, of the segment about to be requested)
- ``is_after_seek`` (bool), ``playback_state`` (``idle``, ``loading``, ``readyToPlay``, ``playing``, ``paused``,
  ``buffering``, ``ended``, ``failed``)
- ``bitrates_bps`` (ladder, lowest first), ``next_sizes_bytes`` (the next segment at each variant): numpy arrays
- ``history``: numpy array (n, 4) of completed downloads: bits, request, first byte and done times (s);
  ``history_count`` = n
"""

import ctypes
import threading

import numpy as np

_STATES = ("idle", "loading", "readyToPlay", "playing", "paused", "buffering", "ended", "failed")
_D = ctypes.POINTER(ctypes.c_double)
MAKE = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64)
DECIDE = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, _D, _D, _D, _D, _D)
RELEASE = ctypes.CFUNCTYPE(None, ctypes.c_int64)


class Wait:
    """A decision to request nothing for ``seconds`` (> 0), then be asked again."""

    def __init__(self, seconds):
        self.seconds = float(seconds)


class PolicyContext:
    """What a policy may look at for one decision; see the module's documentation."""

    __slots__ = ("_s", "_bitrates", "_sizes", "_history")

    def __init__(self, scalars, bitrates, sizes, history):
        self._s, self._bitrates, self._sizes, self._history = scalars, bitrates, sizes, history

    time = property(lambda self: self._s[0])
    segment_index = property(lambda self: int(self._s[1]))
    buffer_seconds = property(lambda self: self._s[2])
    buffer_target_seconds = property(lambda self: self._s[3])
    last_variant = property(lambda self: None if self._s[4] < 0 else int(self._s[4]))
    max_variant = property(lambda self: int(self._s[5]))
    start_variant = property(lambda self: int(self._s[6]))
    variant_count = property(lambda self: int(self._s[7]))
    segment_count = property(lambda self: int(self._s[8]))
    segment_duration = property(lambda self: self._s[9])
    playback_rate = property(lambda self: self._s[10])
    is_after_seek = property(lambda self: self._s[11] != 0)
    history_count = property(lambda self: int(self._s[12]))
    playback_state = property(lambda self: _STATES[int(self._s[13])])

    @property
    def bitrates_bps(self):
        return np.ctypeslib.as_array(self._bitrates, shape=(self.variant_count,)).copy()

    @property
    def next_sizes_bytes(self):
        return np.ctypeslib.as_array(self._sizes, shape=(self.variant_count,)).copy()

    @property
    def history(self):
        n = self.history_count
        if n == 0:
            return np.zeros((0, 4))
        return np.ctypeslib.as_array(self._history, shape=(n * 4,)).reshape(n, 4).copy()


class PolicyBridge:
    """The C callbacks for one ``run``: makes instances, forwards decisions, keeps the first exception."""

    _lock = threading.Lock()

    def __init__(self, policies):
        self.names = list(policies)
        for name in self.names:
            if not isinstance(name, str):
                raise TypeError(f"policies: names must be strings, got {name!r}")
            policy = policies[name]
            if not (hasattr(policy, "decide") or callable(policy)):
                raise TypeError(f"policies['{name}']: needs a decide(context) method or to be a factory")
        self.sources = [policies[name] for name in self.names]
        self.instances = {}
        self.next_id = 0
        self.error = None
        self.make = MAKE(self._make)
        self.decide = DECIDE(self._decide)
        self.release = RELEASE(self._release)

    def _make(self, index):
        try:
            source = self.sources[index]
            is_factory = isinstance(source, type) or not hasattr(source, "decide")
            instance = source() if is_factory else source
            if not hasattr(instance, "decide"):
                raise TypeError(f"policies['{self.names[index]}']() returned an object without decide(context)")
            with self._lock:
                identifier = self.next_id
                self.next_id += 1
                self.instances[identifier] = instance
            return identifier
        except BaseException as error:  # noqa: BLE001  (re-raised by run after the library returns)
            self.error = self.error or error
            return -1

    def _decide(self, identifier, scalars, bitrates, sizes, history, wait):
        try:
            answer = self.instances[identifier].decide(PolicyContext(scalars, bitrates, sizes, history))
            if isinstance(answer, Wait):
                wait[0] = answer.seconds
                return -1
            if isinstance(answer, (bool, float)) or not hasattr(answer, "__index__"):
                raise TypeError(f"decide returned {answer!r}; expected a variant index or abrsim.Wait(seconds)")
            return max(int(answer), 0)
        except BaseException as error:  # noqa: BLE001
            self.error = self.error or error
            return -2

    def _release(self, identifier):
        self.instances.pop(identifier, None)

"""``abrsim.run`` and ``abrsim.compare``: ABRSim's ``run`` and ``compare`` commands in process, their CSV tables
returned as pandas DataFrames (columns and units as in ``docs/outputs``: the same bytes the commands write)."""

import io
import json
import os
import tempfile

import pandas as pd

from ._library import call_text, library
from .errors import InputError, raise_for
from .policies import DECIDE, MAKE, RELEASE, PolicyBridge


class Tables(dict):
    """The tables of a run or comparison, by name (``summary``, ``segments``, …), each a ``pandas.DataFrame``;
    also readable as attributes (``result.summary``)."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def _unframe(data):
    """Splits the library's framed tables (``name length\\n`` then that many bytes, repeated) into DataFrames."""
    tables = Tables()
    position = 0
    while position < len(data):
        end = data.index(b"\n", position)
        name, length = data[position:end].decode().rsplit(" ", 1)
        start = end + 1
        stop = start + int(length)
        key = name[:-4] if name.endswith(".csv") else name
        tables[key] = pd.read_csv(io.BytesIO(data[start:stop]), keep_default_na=False, na_values=[""])
        position = stop
    return tables


def run(scenario, seed=None, base_dir=None, policies=None):
    """Runs a scenario and returns its tables: ``summary``, ``segments``, ``timeline``, ``access_log`` (as
    ``abrsim run`` writes them) and ``capacity`` (the link's capacity over the run, ``capacity.csv``); a feed
    scenario (``docs/feed.md``) adds ``items`` and ``feed``, chunked live content ``chunks``.

    ``scenario`` is the path of a scenario JSON file, or a dict with the same keys (relative paths in it resolve
    against ``base_dir``, default the current folder). ``seed`` replaces the scenario's seed. ``policies`` maps
    names the scenario may use as policies to Python policies (see ``abrsim.policies``). Bad input raises
    ``abrsim.InputError`` with the command line's message (file or ``<dict>``, JSON path, problem)."""
    lib = library()
    seed_value = -1 if seed is None else _non_negative(seed, "seed")
    bridge, extra = _bridge(policies)
    function = lib.abrsim_run_policies if bridge is not None else lib.abrsim_run
    extra = extra if bridge is not None else ()
    if isinstance(scenario, dict):
        try:
            text = json.dumps(scenario, allow_nan=False).encode()
        except (TypeError, ValueError) as error:
            raise InputError(f"<dict>: not representable as JSON: {error}", 2) from None
        directory = os.fspath(base_dir) if base_dir is not None else os.getcwd()
        status, data = call_text(function, None, text, len(text), directory.encode(), b"<dict>", seed_value, *extra)
    elif isinstance(scenario, (str, os.PathLike)):
        status, data = call_text(function, os.fsencode(scenario), None, 0, None, None, seed_value, *extra)
    else:
        raise TypeError(f"scenario must be a path or a dict, not {type(scenario).__name__}")
    if bridge is not None and bridge.error is not None:
        raise bridge.error
    if status != 0:
        raise_for(status, data)
    return _unframe(data)


def compare(traces, content, policies, profile="faithful", segments=None, baseline=None, jobs=None,
            python_policies=None):
    """Every policy on every trace, one player, as ``abrsim compare`` does; returns ``summary``, ``segments`` and
    ``stats`` (per policy and metric, paired differences against ``baseline``, default the first policy).

    ``traces``: a trace file, folder or glob, or a list of them; ``content``: a folder of ``video_size_N`` files or
    a sabre movie JSON; ``policies``: a list of policy specs (``"bba"``, ``"throughput(safety=0.9)"``) or one
    comma-free spec; ``profile``: ``"faithful"`` or ``"pensieve"``; ``segments``: play only the first N;
    ``jobs``: parallel runs (default: all cores); ``python_policies``: names → Python policies (as ``run``'s
    ``policies``) that ``policies`` may name."""
    lib = library()
    bridge, extra = _bridge(python_policies)
    trace_list = [traces] if isinstance(traces, (str, os.PathLike)) else list(traces)
    policy_list = [policies] if isinstance(policies, str) else list(policies)
    for item in policy_list:
        if not isinstance(item, str) or "\n" in item:
            raise InputError(f"policies: each policy must be a one-line string, got {item!r}", 2)
    segment_count = 0 if segments is None else _non_negative(segments, "segments")
    job_count = (os.cpu_count() or 1) if jobs is None else _non_negative(jobs, "jobs")
    status, data = call_text(
        lib.abrsim_compare,
        "\n".join(os.fspath(t) for t in trace_list).encode(),
        os.fsencode(content),
        "\n".join(policy_list).encode(),
        profile.encode(),
        segment_count,
        None if baseline is None else baseline.encode(),
        job_count,
        *extra,
    )
    if bridge is not None and bridge.error is not None:
        raise bridge.error
    if status != 0:
        raise_for(status, data)
    return _unframe(data)


def sweep(scenario, traces=None, policies=None, seed=None, jobs=None, segments=True, out=None, base_dir=None,
          python_policies=None):
    """A scenario on many traces × policies, as ``abrsim sweep`` does; returns ``summary`` (and ``segments``
    unless ``segments=False``; ``feed`` and ``items`` for a feed scenario, ``chunks`` for chunked content), rows in
    run order.

    ``scenario``: a path or a dict, as for ``run``. ``traces``: trace files, folders or globs replacing the
    scenario's network (None: the scenario's own); ``policies``: policy specs replacing every player's, grids
    allowed (``"bba(reservoir=5..15:5)"``). ``out``: the folder the sweep writes and can resume in (default: a
    temporary folder, removed afterwards). ``python_policies``: names → Python policies, as for ``compare``."""
    lib = library()
    bridge, extra = _bridge(python_policies)
    seed_value = -1 if seed is None else _non_negative(seed, "seed")
    job_count = (os.cpu_count() or 1) if jobs is None else _non_negative(jobs, "jobs")
    trace_list = [] if traces is None else ([traces] if isinstance(traces, (str, os.PathLike)) else list(traces))
    policy_list = [] if policies is None else ([policies] if isinstance(policies, str) else list(policies))
    for item in policy_list:
        if not isinstance(item, str) or "\n" in item:
            raise InputError(f"policies: each policy must be a one-line string, got {item!r}", 2)
    lines = ("\n".join(os.fspath(t) for t in trace_list).encode(), "\n".join(policy_list).encode())
    with tempfile.TemporaryDirectory(prefix="abrsim-sweep-") as temporary:
        folder = os.fspath(out) if out is not None else os.path.join(temporary, "sweep")
        tail = (*lines, seed_value, job_count, 1 if segments else 0, os.fsencode(folder), *extra)
        if isinstance(scenario, dict):
            text = json.dumps(scenario, allow_nan=False).encode()
            directory = os.fspath(base_dir) if base_dir is not None else os.getcwd()
            status, data = call_text(lib.abrsim_sweep, None, text, len(text), directory.encode(), b"<dict>", *tail)
        elif isinstance(scenario, (str, os.PathLike)):
            status, data = call_text(lib.abrsim_sweep, os.fsencode(scenario), None, 0, None, None, *tail)
        else:
            raise TypeError(f"scenario must be a path or a dict, not {type(scenario).__name__}")
    if bridge is not None and bridge.error is not None:
        raise bridge.error
    if status != 0:
        raise_for(status, data)
    return _unframe(data)


def _bridge(python_policies):
    """The callbacks for ``python_policies`` and the four C arguments that pass them (all None without)."""
    if not python_policies:
        return None, (None, MAKE(), DECIDE(), RELEASE())  # NULL function pointers
    bridge = PolicyBridge(python_policies)
    return bridge, ("\n".join(bridge.names).encode(), bridge.make, bridge.decide, bridge.release)


def _non_negative(value, name):
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{name}: must be an integer, got {value!r}", 2)
    if value < 0:
        raise InputError(f"{name}: must be ≥ 0, got {value}", 2)
    return value

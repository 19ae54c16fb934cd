"""Python policies in process: the BBA rule in a few lines of Python gives the built-in bba's results."""

import json

import numpy as np
import pandas as pd
import pytest

import abrsim
from conftest import REPOSITORY

SCENARIO = REPOSITORY / "scenarios" / "wifi-lte-3g.json"


class BBA:
    """BBA-0 with reservoir 5 s and cushion 10 s, as the built-in bba's defaults."""

    def decide(self, context):
        top = context.variant_count - 1
        buffer = context.buffer_seconds
        if buffer < 5:
            rung = 0
        elif buffer >= 15:
            rung = top
        else:
            rung = min(int(top * (buffer - 5) / 10), top)
        return max(0, min(rung, context.max_variant))


def scenario_with(policy):
    scenario = json.loads(SCENARIO.read_text())
    scenario["players"][0]["policy"] = policy
    return scenario


def without_policy(frame):
    return frame.drop(columns=[c for c in ("policy",) if c in frame.columns])


def test_python_bba_equals_builtin_bba():
    builtin = abrsim.run(scenario_with("bba"), base_dir=SCENARIO.parent)
    python = abrsim.run(scenario_with("py-bba"), base_dir=SCENARIO.parent, policies={"py-bba": BBA})
    assert python.summary.policy.tolist() == ["py-bba"]
    assert len(builtin.segments) > 50 and builtin.segments.variant.nunique() > 1  # the rule had work to do
    for name in builtin:
        pd.testing.assert_frame_equal(without_policy(python[name]), without_policy(builtin[name]))


def test_context_carries_the_history_and_content():
    seen = []

    class Recorder(BBA):
        def decide(self, context):
            seen.append((context.segment_index, context.history_count, context.history.shape,
                         context.last_variant, context.bitrates_bps.tolist(), context.playback_state))
            assert context.next_sizes_bytes.shape == (context.variant_count,)
            return super().decide(context)

    tables = abrsim.run(scenario_with("rec"), base_dir=SCENARIO.parent, policies={"rec": Recorder})
    assert seen[0][0] == 0 and seen[0][1] == 0 and seen[0][3] is None
    assert seen[0][4] == [k * 1000.0 for k in (145, 365, 730, 1100, 2000, 3000, 4500, 6000, 7800)]
    assert all(h == (n, 4) for _, n, h, _, _, _ in seen)
    assert [s[0] for s in seen] == sorted(s[0] for s in seen)
    assert seen[-1][1] == len(tables.segments) - 1


def test_a_shared_object_and_a_wait():
    class WaitOnce:
        def __init__(self):
            self.waited = False

        def decide(self, context):
            if context.segment_index == 3 and not self.waited:
                self.waited = True
                return abrsim.Wait(2.0)
            return 0

    policy = WaitOnce()
    tables = abrsim.run(scenario_with("w"), base_dir=SCENARIO.parent, policies={"w": policy})
    assert policy.waited and (tables.segments.variant == 0).all()
    gap = tables.segments.request_s.iloc[3] - tables.segments.done_s.iloc[2]
    assert gap >= 2.0 - 1e-9


def test_an_exception_in_decide_is_raised_by_run():
    class Broken:
        def decide(self, context):
            if context.segment_index == 2:
                raise KeyError("boom")
            return 0

    with pytest.raises(KeyError, match="boom"):
        abrsim.run(scenario_with("b"), base_dir=SCENARIO.parent, policies={"b": Broken})


def test_bad_answers_and_names():
    class Floaty:
        def decide(self, context):
            return 1.5

    with pytest.raises(TypeError, match="variant index"):
        abrsim.run(scenario_with("f"), base_dir=SCENARIO.parent, policies={"f": Floaty})
    with pytest.raises(abrsim.InputError, match="built-in"):
        abrsim.run(scenario_with("bba"), base_dir=SCENARIO.parent, policies={"bba": BBA})
    with pytest.raises(TypeError, match="decide"):
        abrsim.run(scenario_with("x"), base_dir=SCENARIO.parent, policies={"x": 3})
    with pytest.raises(abrsim.InputError, match="unknown policy 'nope'"):
        abrsim.run(scenario_with("nope"), base_dir=SCENARIO.parent, policies={"x": BBA})


def test_python_bba_in_compare_and_sweep_equals_builtin_bba():
    from conftest import TRACES, VIDEO

    traces = sorted(str(p) for p in TRACES.iterdir())[:3]
    builtin = abrsim.compare(traces, VIDEO, ["bba"], profile="pensieve", jobs=2)
    python = abrsim.compare(traces, VIDEO, ["py-bba"], profile="pensieve", jobs=2, python_policies={"py-bba": BBA})
    for name in ("summary", "segments"):
        pd.testing.assert_frame_equal(without_policy(python[name]), without_policy(builtin[name]))
    swept = abrsim.sweep(SCENARIO, traces=traces, policies=["py-bba"], python_policies={"py-bba": BBA}, jobs=2)
    reference = abrsim.sweep(SCENARIO, traces=traces, policies=["bba"], jobs=2)
    for name in ("summary", "segments"):
        pd.testing.assert_frame_equal(without_policy(swept[name]), without_policy(reference[name]))

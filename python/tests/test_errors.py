"""Bad input from Python raises exceptions carrying the command line's one-line message, never a crash."""

import json
import subprocess

import pytest

import abrsim
from abrsim.gym import PensieveEnv, VectorABREnv
from conftest import REPOSITORY, TRACES, VIDEO


def test_missing_trace_folder(tmp_path):
    with pytest.raises(abrsim.InputError, match="trace_folder"):
        PensieveEnv(trace_folder=tmp_path / "nothing", video_size_folder=VIDEO)


def test_missing_video(tmp_path):
    with pytest.raises(abrsim.InputError) as caught:
        PensieveEnv(trace_folder=TRACES, video_size_folder=tmp_path)
    assert str(tmp_path) in caught.value.message and caught.value.status == 2


def test_bad_trace_names_file_and_line(tmp_path):
    (tmp_path / "broken").write_text("0.0 1.0\n1.0 x\n")
    with pytest.raises(abrsim.InputError, match=r"broken: line 2: the throughput 'x' is not a number"):
        PensieveEnv(trace_folder=tmp_path, video_size_folder=VIDEO)


def test_unknown_key_in_a_dict_names_the_json_path(tmp_path):
    scenario = json.loads((REPOSITORY / "scenarios" / "wifi-lte-3g.json").read_text())
    scenario["players"][0]["bogus"] = 1
    with pytest.raises(abrsim.InputError) as caught:
        abrsim.run(scenario, base_dir=REPOSITORY / "scenarios")
    assert caught.value.message.startswith("<dict>: $.players[0]")
    assert "bogus" in caught.value.message and "\n" not in caught.value.message


def test_file_errors_match_the_command_line(tmp_path):
    scenario = json.loads((REPOSITORY / "scenarios" / "wifi-lte-3g.json").read_text())
    scenario["players"][0]["bogus"] = 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(scenario).replace('"traces/', '"' + str(REPOSITORY / "scenarios" / "traces") + "/"))
    with pytest.raises(abrsim.InputError) as caught:
        abrsim.run(str(path))
    binary = REPOSITORY / ".build" / "release" / "abrsim"
    if not binary.exists():
        binary = REPOSITORY / ".build" / "debug" / "abrsim"
    if binary.exists():
        cli = subprocess.run([str(binary), "run", str(path), "--out", str(tmp_path / "out")], capture_output=True,
                             text=True)
        assert cli.returncode == 2
        assert cli.stderr.strip() == "abrsim run: " + caught.value.message
    else:
        assert caught.value.message.startswith(str(path) + ": $.players[0]")


def test_missing_scenario_file(tmp_path):
    with pytest.raises(abrsim.InputError, match="nothing.json"):
        abrsim.run(tmp_path / "nothing.json")


def test_wrong_scenario_type():
    with pytest.raises(TypeError, match="path or a dict"):
        abrsim.run(42)


def test_vector_bad_actions():
    env = VectorABREnv(3, trace_folder=TRACES, video_size_folder=VIDEO)
    env.reset()
    with pytest.raises(ValueError, match=r"actions\[1\]: level 9"):
        env.step([0, 9, 0])
    with pytest.raises(ValueError, match="shape"):
        env.step([0, 1])
    with pytest.raises(TypeError, match="integer"):
        env.step([0.5, 1.0, 2.0])
    with pytest.raises(abrsim.InputError, match="num_envs"):
        VectorABREnv(0, trace_folder=TRACES, video_size_folder=VIDEO)

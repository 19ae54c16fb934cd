"""ABRSim from Python: the simulator loaded in process (its C API, ``libABRSimC``) through ctypes.

- ``abrsim.run(scenario)``, ``abrsim.compare(...)`` and ``abrsim.sweep(...)`` return the commands' tables as pandas DataFrames.
- ``abrsim.run(scenario, policies={"name": obj})`` runs Python policies (``decide(context)``) in process.
- ``abrsim.gym.PensieveEnv`` is Pensieve's environment (``pensieve-ppo``'s, step for step);
  ``abrsim.gym.VectorABREnv`` steps many of them in one library call.

Errors from the library are ``abrsim.InputError`` (bad input; the message names the file and the JSON path or line,
as the command line prints it) or ``abrsim.ABRSimError``.
"""

from .errors import ABRSimError, InputError
from .policies import PolicyContext, Wait
from .runs import Tables, compare, run, sweep

__all__ = ["ABRSimError", "InputError", "PolicyContext", "Tables", "Wait", "compare", "run", "sweep"]

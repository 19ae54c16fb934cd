"""Exceptions raised by the abrsim package."""


class ABRSimError(Exception):
    """A failure reported by the ABRSim library. ``message`` is the one-line text ``abrsim`` prints (file, line or
    JSON path, and what is wrong); ``status`` is the command line's exit status for it (1 failure, 2 bad input,
    3 output not written)."""

    def __init__(self, message, status=1):
        super().__init__(message)
        self.message = message
        self.status = status


class InputError(ABRSimError, ValueError):
    """Bad input (status 2): a scenario, trace or content file, or an argument, that ABRSim refuses. The message
    names the place: ``file: $.json.path: problem`` or ``file: line N: problem``."""


def raise_for(status, data):
    """Raises the exception for a non-zero C API status with the library's message."""
    message = data.decode("utf-8", "replace")
    if status == 2:
        raise InputError(message, status)
    raise ABRSimError(message, status)

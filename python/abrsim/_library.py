"""Finds and loads ABRSim's shared library (the `ABRSimC` product, `libABRSimC.so`) and declares its C API.

Where the library is looked for, first match wins:
1. the file named by the environment variable ``ABRSIM_LIBRARY``;
2. ``.build/release/libABRSimC.so`` then ``.build/debug/libABRSimC.so`` in the current folder or any parent
   (running from a checkout after ``swift build -c release --product ABRSimC``, which ``scripts/setup`` does).
"""

import ctypes
import os
from pathlib import Path

_NAMES = ("libABRSimC.so", "libABRSimC.dylib")
_API_VERSION = 1

c_char_pp = ctypes.POINTER(ctypes.c_char_p)


class LibraryNotFound(RuntimeError):
    """The shared library could not be found or loaded."""


def _candidates():
    named = os.environ.get("ABRSIM_LIBRARY")
    if named:
        yield Path(named)
        return
    here = Path.cwd().resolve()
    for folder in (here, *here.parents):
        for configuration in ("release", "debug"):
            for name in _NAMES:
                yield folder / ".build" / configuration / name


def _declare(lib):
    from .policies import DECIDE, MAKE, RELEASE

    text_out = ctypes.POINTER(ctypes.c_void_p)
    size_out = ctypes.POINTER(ctypes.c_size_t)
    lib.abrsim_api_version.restype = ctypes.c_int32
    lib.abrsim_api_version.argtypes = []
    lib.abrsim_free.restype = None
    lib.abrsim_free.argtypes = [ctypes.c_void_p]
    lib.abrsim_run.restype = ctypes.c_int32
    lib.abrsim_run.argtypes = [
        ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ssize_t, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64,
        text_out, size_out,
    ]
    lib.abrsim_run_policies.restype = ctypes.c_int32
    lib.abrsim_run_policies.argtypes = [
        ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ssize_t, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64,
        ctypes.c_char_p, MAKE, DECIDE, RELEASE, text_out, size_out,
    ]
    lib.abrsim_compare.restype = ctypes.c_int32
    lib.abrsim_compare.argtypes = [
        ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64, ctypes.c_char_p,
        ctypes.c_int64, ctypes.c_char_p, MAKE, DECIDE, RELEASE, text_out, size_out,
    ]
    lib.abrsim_sweep.restype = ctypes.c_int32
    lib.abrsim_sweep.argtypes = [
        ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ssize_t, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
        ctypes.c_char_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int32, ctypes.c_char_p,
        ctypes.c_char_p, MAKE, DECIDE, RELEASE, text_out, size_out,
    ]
    lib.abrsim_pensieve_create.restype = ctypes.c_int32
    lib.abrsim_pensieve_create.argtypes = [
        ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int64, ctypes.POINTER(ctypes.c_void_p), text_out, size_out,
    ]
    lib.abrsim_pensieve_destroy.restype = None
    lib.abrsim_pensieve_destroy.argtypes = [ctypes.c_void_p]
    lib.abrsim_pensieve_level_count.restype = ctypes.c_int64
    lib.abrsim_pensieve_level_count.argtypes = [ctypes.c_void_p]
    lib.abrsim_pensieve_reset.restype = None
    lib.abrsim_pensieve_reset.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p]
    lib.abrsim_pensieve_step.restype = ctypes.c_int32
    lib.abrsim_pensieve_step.argtypes = [
        ctypes.c_void_p, ctypes.c_int64, ctypes.c_double, ctypes.c_void_p, ctypes.c_void_p,
    ]
    lib.abrsim_pensieve_trace_samples.restype = ctypes.c_int64
    lib.abrsim_pensieve_trace_samples.argtypes = [ctypes.c_void_p, ctypes.c_int64]
    lib.abrsim_pensieve_start.restype = None
    lib.abrsim_pensieve_start.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64]
    lib.abrsim_pensieve_vector_step.restype = ctypes.c_int32
    lib.abrsim_pensieve_vector_step.argtypes = [
        ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
    ]
    return lib


_loaded = None


def library():
    """The loaded library, loading it on first use; raises ``LibraryNotFound`` naming the places looked at."""
    global _loaded
    if _loaded is not None:
        return _loaded
    looked = []
    for path in _candidates():
        looked.append(str(path))
        if path.is_file():
            try:
                lib = ctypes.CDLL(str(path))
            except OSError as error:
                raise LibraryNotFound(f"{path}: cannot be loaded: {error}") from None
            version = lib.abrsim_api_version()
            if version != _API_VERSION:
                raise LibraryNotFound(f"{path}: C API version {version}, this package needs {_API_VERSION}")
            _loaded = _declare(lib)
            return _loaded
    raise LibraryNotFound(
        "libABRSimC not found (build it with `swift build -c release --product ABRSimC`, or set ABRSIM_LIBRARY); "
        "looked at: " + ", ".join(looked[:4]) + (" …" if len(looked) > 4 else "")
    )


def call_text(function, *arguments):
    """Calls a C API function whose last two parameters receive a text buffer and its length; returns
    ``(status, bytes)`` after releasing the buffer."""
    buffer = ctypes.c_void_p()
    length = ctypes.c_size_t()
    status = function(*arguments, ctypes.byref(buffer), ctypes.byref(length))
    data = b""
    if buffer.value:
        data = ctypes.string_at(buffer.value, length.value)
        library().abrsim_free(buffer)
    return status, data

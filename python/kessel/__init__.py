"""kessel: attention engine, fuzzy clustering, HMMs, normalization layers, EACA.

The compiled extension is ``kessel._kessel``; this package re-exports its public names, so
``kessel.attention``, ``kessel.Summarizer`` etc. are the extension's objects. Pure-Python layers
(``kessel.torch``) are submodules beside it in this directory (docs/packaging.md).

Precision: the attention and normalization-layer functions compute in float32; a float64 numpy
array converted to float32 raises kessel.PrecisionWarning once per process. The clustering and HMM
functions compute in float64.
"""
from . import _kessel
from ._kessel import *  # noqa: F401,F403 (the public API is the extension's)
from ._kessel import _eaca_trace  # noqa: F401 (internal: tests/python/test_eaca_torch.py)

__version__: str = _kessel.__version__
__all__ = [name for name in dir(_kessel) if not name.startswith("_")]

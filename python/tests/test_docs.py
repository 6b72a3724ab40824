"""The examples of docs/python.md that run without a GPU, run as written."""
import os
import re

from conftest import needs_mpi4py, assert_all

pytestmark = needs_mpi4py

DOCS = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")


def example_blocks():
    with open(DOCS) as f:
        text = f.read()
    return re.findall(r"<!-- tested:[^>]*-->\n```python\n(.*?)```", text, re.S)


def test_fft2d_numpy_example(capsys):
    blocks = example_blocks()
    assert len(blocks) == 1, "docs/python.md should mark its NumPy FFT example as tested"
    error = None
    try:
        exec(compile(blocks[0], "docs/python.md", "exec"), {"__name__": "__main__"})
    except Exception as e:  # noqa: BLE001 - agreed below, so no rank is left waiting
        error = repr(e)
    assert_all(error is None, error)

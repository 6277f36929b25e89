"""A short mutation sweep over every reader of the CLI (tests/python/mutation_sweep.py has the long
one): damaged inputs end in a named error (exit 3) or a result, never an internal error or a crash."""
import os

import mutation_sweep

CLI = os.environ.get("KESSEL_CLI", "kessel")
SOURCE = os.environ.get("KESSEL_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
DATA = os.environ.get("KESSEL_DATA", os.path.join(SOURCE, "..", "shared", "data"))


def test_damaged_inputs_end_in_named_errors(tmp_path):
    failures, runs, _ = mutation_sweep.sweep(CLI, 200, 10, SOURCE, DATA, str(tmp_path))
    assert runs >= 200
    assert not failures, "\n".join(f"{n}: kessel {c}: {r} ({p})\n{t}" for n, c, r, p, t in failures)


def test_damaged_bodies_get_json_errors_and_the_server_stays_up():
    failures, runs = mutation_sweep.server_sweep(CLI, 150, 11, SOURCE)
    assert runs == 150
    assert not failures, "\n".join(f"{n}: {c}: {r}\n{t}" for n, c, r, _, t in failures)


def test_the_sweep_catches_an_internal_error(tmp_path):
    # The checker itself: "internal error" is a failure although its exit code (3) is that of a
    # named error; a named error is not; a usage error (2) is, as is exit 3 without a named error.
    class Result:
        def __init__(self, code, err):
            self.returncode, self.stderr = code, err.encode()

    assert mutation_sweep.failure(Result(3, "kessel: internal error: std::bad_alloc")) == "internal error"
    assert mutation_sweep.failure(Result(3, "kessel: error: x.jsonl:1: turns: missing")) is None
    assert mutation_sweep.failure(Result(2, "kessel summarize: usage error: --input is required")) == "exit code 2"
    assert mutation_sweep.failure(Result(3, "Usage: ...")) is not None
    assert mutation_sweep.failure(Result(0, "==1==ERROR: AddressSanitizer: heap-buffer-overflow")) == "Sanitizer"

#!/usr/bin/env bash
# Builds the wheel (python3 -m build --wheel, setuptools driving CMake), installs it into a fresh venv
# made with --system-site-packages (numpy, torch, pytest from Debian), and runs the Python tests there
# against the installed package: no PYTHONPATH, the working directory outside the checkout, and a
# check that `kessel` is the venv's copy. Then it hides the installed kessel/data and checks that the
# error names that place and not the checkout.
#
#   bash tests/packaging/test_wheel.sh [WORK]
# Environment:
#   KESSEL_CMAKE_BUILD_DIR  an existing configured build tree to build the extension in (setup.py);
#                           unset: a fresh CMake build inside the wheel build (the whole library).
#   KESSEL_CLI              the CLI for the tests that also run it (default: $KESSEL_CMAKE_BUILD_DIR/kessel)
#   KESSEL_WHEEL_TESTS      "all" for every tests/python/test_*.py; default: the tests of the Python API
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$(mktemp -d /tmp/kessel-wheel.XXXXXX)}
mkdir -p "$work" && work=$(cd "$work" && pwd)
rm -rf "$work/dist" "$work/venv"
python=/usr/bin/python3
if [ -n "${KESSEL_CMAKE_BUILD_DIR:-}" ]; then
  export KESSEL_CMAKE_BUILD_DIR=$(cd "$KESSEL_CMAKE_BUILD_DIR" && pwd)
  export KESSEL_CLI=${KESSEL_CLI:-$KESSEL_CMAKE_BUILD_DIR/kessel}
fi

echo "== wheel (KESSEL_CMAKE_BUILD_DIR=${KESSEL_CMAKE_BUILD_DIR:-<fresh build>})"
start=$SECONDS
(cd "$src" && "$python" -m build --wheel --no-isolation --outdir "$work/dist" > "$work/build.log" 2>&1) ||
  { tail -30 "$work/build.log"; exit 1; }
wheel=$(ls "$work"/dist/kessel-*.whl)
echo "built $(basename "$wheel") in $((SECONDS - start)) s"
"$python" - "$wheel" << 'PY'
import sys, zipfile
names = set(zipfile.ZipFile(sys.argv[1]).namelist())
need = ["kessel/__init__.py", "kessel/py.typed", "kessel/_kessel.pyi", "kessel/data/lexicon/default_zh.tsv",
        "kessel/data/lexicon/default_en.tsv", "kessel/data/lexicon/default_emoji.tsv",
        "kessel/data/samples/dialogues_zh.jsonl", "kessel/data/samples/dialogues_en.jsonl"]
missing = [n for n in need if n not in names]
if missing or not any(n.startswith("kessel/_kessel.") and n.endswith(".so") for n in names):
    sys.exit(f"wheel lacks {missing or 'the extension'}: {sorted(names)}")
PY

echo "== fresh venv, pip install the wheel"
"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --no-index --no-deps --no-build-isolation -q "$wheel"
site=$("$work/venv/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
cd "$work"  # away from the checkout: nothing can import python/ or build/python by accident
unset PYTHONPATH KESSEL_HOME
"$work/venv/bin/python" - "$site" << 'PY'
import sys, importlib.metadata as md, kessel
assert kessel.__file__.startswith(sys.argv[1]), f"kessel imported from {kessel.__file__}, not the venv"
assert md.version("kessel") == kessel.__version__, (md.version("kessel"), kessel.__version__)
print(f"kessel {kessel.__version__} from {kessel.__file__}")
PY

echo "== Python tests against the installed package"
if [ "${KESSEL_WHEEL_TESTS:-}" = "all" ]; then
  tests=("$src"/tests/python/test_*.py)
else
  tests=()
  for t in packaging summarize_py eaca_torch nn hmm cluster attention_errors cpu_variant dask; do
    tests+=("$src/tests/python/test_$t.py")
  done
fi
start=$SECONDS
KESSEL_SOURCE_DIR=$src "$work/venv/bin/python" -m pytest -q -p no:cacheprovider "${tests[@]}"
echo "tests took $((SECONDS - start)) s"

echo "== the installed data is what is used"
mv "$site/kessel/data" "$site/kessel/data.hidden"
trap 'mv "$site/kessel/data.hidden" "$site/kessel/data"' EXIT
"$work/venv/bin/python" - "$site" "$src" << 'PY'
import sys, kessel
site, src = sys.argv[1], sys.argv[2]
try:
    kessel.Summarizer()
except OSError as e:
    msg = str(e)
    assert f"tried {site}/kessel/data/lexicon)" in msg, msg
    # The venv may live inside the checkout (build/wheel-test), so look for the checkout's data folder,
    # not its path.
    assert f"{src}/data/lexicon" not in msg, "an installed package looked into the checkout: " + msg
    print("without kessel/data:", msg)
else:
    sys.exit("Summarizer() found a lexicon although the installed kessel/data was hidden")
PY
echo "wheel test: ok"

"""The package as installed: one version everywhere, the type stub matching the extension, py.typed,
and the default lexicon found from the package's own place (docs/packaging.md). Runs against
whichever `kessel` is importable: build/python (ctest) or an installed wheel
(tests/packaging/test_wheel.sh)."""
import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import kessel
import kessel._kessel as ext

SRC = Path(os.environ.get("KESSEL_SOURCE_DIR", Path(__file__).resolve().parents[2]))
CLI = os.environ.get("KESSEL_CLI")
PACKAGE = Path(kessel.__file__).parent
STUB = PACKAGE / "_kessel.pyi"


def cmake_version():
    text = (SRC / "CMakeLists.txt").read_text(encoding="utf-8")
    return re.search(r"project\(\s*kessel\s+VERSION\s+([0-9.]+)", text).group(1)


def test_version_is_cmakes():
    assert kessel.__version__ == ext.__version__ == cmake_version()


@pytest.mark.skipif(not CLI, reason="KESSEL_CLI not set")
def test_cli_version_is_cmakes():
    out = subprocess.run([CLI, "--version"], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[0] == "kessel " + cmake_version()


def test_package_reexports_the_extension():
    public = {n for n in dir(ext) if not n.startswith("_")}
    assert public == set(kessel.__all__)
    for name in public:
        assert getattr(kessel, name) is getattr(ext, name), name
    assert kessel._eaca_trace is ext._eaca_trace


def test_typed_package():
    assert (PACKAGE / "py.typed").is_file()
    assert STUB.is_file()


def stub_names(tree):
    """Top-level names of a stub and, per class, its members."""
    names, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
    return names, members


def test_every_stubbed_name_exists_and_every_public_name_is_stubbed():
    names, members = stub_names(ast.parse(STUB.read_text(encoding="utf-8")))
    module_names = {n for n in dir(ext) if not n.startswith("__")} | {"__version__"}
    assert names - module_names == set(), "in the stub but not in kessel._kessel"
    assert module_names - names == set(), "in kessel._kessel but not in the stub (rerun tools/gen_stubs.py)"
    for cls, stubbed in members.items():
        for member in stubbed:
            assert hasattr(getattr(ext, cls), member), f"{cls}.{member}"


@pytest.mark.skipif(not (SRC / "tools" / "gen_stubs.py").exists(), reason="no source tree")
def test_stub_is_what_the_generator_writes_from_the_real_signatures():
    env = dict(os.environ, PYTHONPATH=str(PACKAGE.parent))
    out = subprocess.run([sys.executable, str(SRC / "tools" / "gen_stubs.py")], capture_output=True,
                         text=True, check=True, env=env).stdout
    assert out == STUB.read_text(encoding="utf-8"), (
        "python/kessel/_kessel.pyi is out of date: PYTHONPATH=build/python /usr/bin/python3 "
        "tools/gen_stubs.py > python/kessel/_kessel.pyi")


def test_default_lexicon_found_without_kessel_home(monkeypatch):
    monkeypatch.delenv("KESSEL_HOME", raising=False)
    summary = kessel.Summarizer().summarize(
        {"id": "p", "turns": [{"speaker": "customer", "text": "this is ridiculous, my order is late"},
                              {"speaker": "agent", "text": "Sorry, I will check it now."}]})
    assert summary["emotions"], "the default lexicon's 'ridiculous' was not found"


def test_a_missing_lexicon_dir_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv("KESSEL_HOME", str(tmp_path))
    with pytest.raises(OSError, match="lexicon_dir .*nowhere: no default_zh.tsv there"):
        kessel.Summarizer(lexicon_dir=str(tmp_path / "nowhere"))

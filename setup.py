"""Builds the kessel wheel: the package python/kessel/ (every .py and .pyi in it, py.typed), the
extension kessel._kessel compiled by CMake (only the target kessel_py and the libraries it links), and
the data kessel/data/{lexicon,samples} copied from data/.

Environment:
  KESSEL_CMAKE_BUILD_DIR  an existing, configured CMake build tree (e.g. build/): the extension is built
                          (or found up to date) there instead of configuring a fresh tree, so CI does not
                          compile the library twice. It must be configured for this interpreter's
                          Python version (the extension suffix is checked).
  CMAKE_BUILD_PARALLEL_LEVEL  build jobs (default: os.cpu_count()).
  KESSEL_CMAKE_ARGS       extra arguments for a fresh configure (split on spaces).
"""
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
(ROOT / "build-wheel").mkdir(exist_ok=True)  # setuptools' build and egg-info dirs (see setup() below)
PACKAGE_DATA_DIRS = ("lexicon", "samples")  # data/<dir> -> kessel/data/<dir>


def cmake_version():
    """The one version number: project(kessel VERSION x.y.z) in CMakeLists.txt."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    found = re.search(r"project\(\s*kessel\s+VERSION\s+([0-9][0-9.]*)", text)
    if not found:
        raise RuntimeError("setup.py: no 'project(kessel VERSION x.y.z)' in " + str(ROOT / "CMakeLists.txt"))
    return found.group(1)


def run(cmd, **kw):
    print("setup.py: " + " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kw)


class CMakeBuild(build_ext):
    """Builds kessel._kessel with CMake and copies the module into the wheel."""

    def build_extension(self, ext):
        given = os.environ.get("KESSEL_CMAKE_BUILD_DIR")
        if given:
            tree = Path(given).resolve()
            if not (tree / "CMakeCache.txt").exists():
                raise RuntimeError("setup.py: KESSEL_CMAKE_BUILD_DIR=" + given + " has no CMakeCache.txt "
                                   "(configure it first, or unset it for a fresh build)")
        else:
            tree = Path(self.build_temp).resolve() / "cmake"
            self.configure(tree)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        run(["cmake", "--build", tree, "--target", "kessel_py", "-j", jobs])
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = tree / "python" / "kessel" / ("_kessel" + suffix)
        if not built.exists():
            others = sorted(p.name for p in (tree / "python" / "kessel").glob("_kessel*"))
            raise RuntimeError("setup.py: " + str(built) + " not built (found " + (", ".join(others) or "nothing") +
                               "): the CMake tree was configured for another Python than " + sys.executable)
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built, target)

    def configure(self, tree):
        if (tree / "CMakeCache.txt").exists():
            return  # configured by an earlier run of this build; cmake --build re-checks it
        args = ["cmake", "-S", ROOT, "-B", tree, "-DCMAKE_BUILD_TYPE=Release", "-DKESSEL_PYTHON=ON",
                "-DKESSEL_BENCH=OFF", "-DPython3_EXECUTABLE=" + sys.executable]
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        args += os.environ.get("KESSEL_CMAKE_ARGS", "").split()
        run(args)


class BuildPyWithData(build_py):
    """The package's Python files, plus data/lexicon and data/samples as kessel/data/."""

    def run(self):
        super().run()
        for name in PACKAGE_DATA_DIRS:
            source = ROOT / "data" / name
            if not source.is_dir():
                raise RuntimeError("setup.py: " + str(source) + " missing (the package data comes from data/)")
            target = Path(self.build_lib) / "kessel" / "data" / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target)


setup(
    version=cmake_version(),
    packages=find_packages(where="python"),  # kessel and any subpackage; every .py in them
    package_dir={"": "python"},
    package_data={"kessel": ["py.typed", "*.pyi"]},
    ext_modules=[Extension("kessel._kessel", sources=[])],
    cmdclass={"build_ext": CMakeBuild, "build_py": BuildPyWithData},
    # setuptools' work goes to build-wheel/, out of the CMake tree build/ (a fresh extension build is in
    # build-wheel/temp.*/cmake, reused by the next pip install from this checkout).
    options={"build": {"build_base": "build-wheel"}, "egg_info": {"egg_base": "build-wheel"}},
    zip_safe=False,
)

# CMake toolchain file: cross-compile kessel for 64-bit ARM Linux with Debian's cross compiler
# (g++-aarch64-linux-gnu) against the :arm64 -dev packages installed through multiarch
# (dpkg --add-architecture arm64). There is no separate sysroot: the arm64 headers and libraries live
# in the host's / under the aarch64-linux-gnu triplet (/usr/lib/aarch64-linux-gnu, ...).
# scripts/cross-aarch64 installs the packages, builds with this file and runs the tests under qemu.
#   cmake -S . -B build-aarch64 --toolchain cmake/aarch64-linux-gnu.cmake
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

# Look for libraries, headers and package configs only under the triplet's directories (multiarch:
# the root is /), and for programs (pkg-config, python) on the host.
set(CMAKE_FIND_ROOT_PATH /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# pkg-config (cpp-httplib) must read the arm64 .pc files, not the host's: Debian ships no
# aarch64-linux-gnu-pkg-config wrapper unless pkgconf:arm64 is installed, so point the host one there.
set(ENV{PKG_CONFIG_LIBDIR} "/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_PATH} "")

# Test binaries (ctest, try_run) run under user-mode emulation. qemu's default CPU for aarch64 is
# `max` (NEON, SVE, SVE2); QEMU_CPU in the environment picks another. No -L: the loader and libraries
# come from the :arm64 packages (with the cross toolchain's libc, OpenBLAS hangs at start-up).
find_program(KESSEL_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(KESSEL_QEMU_AARCH64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${KESSEL_QEMU_AARCH64})
endif()

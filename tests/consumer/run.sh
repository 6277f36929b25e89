#!/usr/bin/env bash
# The install test (ctest -L install): installs the build tree BUILD into a fresh prefix, then builds
# tests/consumer against it twice, with find_package(kessel) and with pkg-config (kessel.pc), runs
# both, and runs the installed CLI, which must find its data under the prefix, not in the checkout.
#   bash tests/consumer/run.sh BUILD [WORK]
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=${2:-$build/consumer-test}
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix

echo "== cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" > "$work/install.log"
version=$(sed -n 's/^Version: //p' "$prefix/lib/pkgconfig/kessel.pc")

echo "== find_package(kessel) consumer"
gen=(); if command -v ninja > /dev/null; then gen=(-G Ninja); fi
cmake -S "$here" -B "$work/cmake" "${gen[@]}" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release > "$work/configure.log"
cmake --build "$work/cmake" > "$work/build.log"
"$work/cmake/consumer" | tee "$work/cmake.out"
grep -qx "kessel $version" "$work/cmake.out"

echo "== pkg-config consumer"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
datadir=$(pkg-config --variable=datadir kessel)
# shellcheck disable=SC2046  # pkg-config's flags are words
c++ -std=c++20 -O1 -DKESSEL_DATA_DIR="\"$datadir\"" "$here/main.cc" -o "$work/consumer-pc" $(pkg-config --cflags --libs kessel)
"$work/consumer-pc"

echo "== installed CLI"
"$prefix/bin/kessel" --version | head -1 | grep -qx "kessel $version"
# Without KESSEL_HOME the installed binary must take the prefix's lexicon and samples (stress's
# bundled samples), never the source tree: moved away from its prefix it must fail, naming the path.
env -u KESSEL_HOME "$prefix/bin/kessel" summarize --input "$prefix/share/kessel/samples/dialogues_zh.jsonl" \
  > "$work/summaries.jsonl" 2> "$work/summarize.err"
test "$(wc -l < "$work/summaries.jsonl")" -eq "$(wc -l < "$prefix/share/kessel/samples/dialogues_zh.jsonl")"
env -u KESSEL_HOME "$prefix/bin/kessel" stress --lengths 8 --densities 0.5 --min-seconds 0 > "$work/stress.txt" 2> "$work/stress.err"
mkdir -p "$work/moved/bin" && cp "$prefix/bin/kessel" "$work/moved/bin/"
if env -u KESSEL_HOME "$work/moved/bin/kessel" summarize --input "$prefix/share/kessel/samples/dialogues_en.jsonl" 2> "$work/moved.err"; then
  echo "install test: a kessel binary away from its prefix found a lexicon" >&2; exit 1
fi
grep -q "default lexicon not found (tried $work/moved/share/kessel/lexicon)" "$work/moved.err"
echo "install test: ok (kessel $version)"

#!/usr/bin/env bash
# Instructions per acknowledged ply of `gmo serve` (issue 11), counted by valgrind's callgrind.
#
# Usage: crates/cli/benches/load/callgrind.sh [PLIES] [GAMES]     (defaults: 2000 plies, 64 games)
#
# It builds the bench-profile `gmo` and the load benchmark (nice -n 19), then runs `gmo serve
# --rate-limit 0` under `valgrind --tool=callgrind` twice, each time on a fresh SQLite file:
# once started and stopped without a request (start-up, migrations and shutdown alone), once
# while the load benchmark's game drivers send PLIES plies over GAMES games to it
# (`--base URL --plies PLIES`). Each run ends with SIGTERM. It prints the load benchmark's line,
# the instructions (Ir) of both runs, (load − idle) ÷ acknowledged plies, and the top 25
# functions of the load run by self and by inclusive cost (start-up included there).
# Everything stays in $OUT (default: a new temporary directory): load.callgrind for
# callgrind_annotate or kcachegrind, the servers' and the benchmark's output. The server logs
# as RUST_LOG says, `warn` unless set. Under callgrind the server runs tens of times slower, one
# thread at a time: its instruction counts mean something, its times and latencies do not.
# Inclusive costs of async poll functions go past 100% (callgrind marks recursion as 'N and
# counts it again at each level), and valgrind hides some CPU features (SHA-NI, say), so crates
# that pick an implementation at run time may run another one than natively.
set -euo pipefail
plies=${1:-2000}
games=${2:-64}
cd "$(dirname "$0")/../../../.."
out=${OUT:-$(mktemp -d -t gmo-callgrind.XXXXXX)}
mkdir -p "$out"
# Request tracing at `info` would be counted too; the load figures in docs/performance.md use `warn`.
export RUST_LOG=${RUST_LOG:-warn}

nice -n 19 cargo bench -p gmo --bench load --no-run # builds the bench-profile gmo with it
target=$(cargo metadata --format-version 1 --no-deps | jq -r .target_directory)
gmo=$target/release/gmo

# Starts gmo serve under callgrind on a fresh SQLite file, its profile in $out/$1.callgrind;
# sets $server (valgrind runs the program in its own process) and $base.
serve() {
    valgrind --tool=callgrind --callgrind-out-file="$out/$1.callgrind" \
        "$gmo" serve --bind 127.0.0.1:0 --database-url "sqlite://$out/$1.db" --rate-limit 0 \
        >"$out/$1.serve.log" 2>"$out/$1.valgrind.log" &
    server=$!
    trap 'kill "$server" 2>/dev/null || true' EXIT
    base=
    for _ in $(seq 600); do
        base=$(sed -n 's/^listening on //p' "$out/$1.serve.log")
        [ -n "$base" ] && return
        kill -0 "$server" 2>/dev/null || { cat "$out/$1.valgrind.log" >&2; exit 1; }
        sleep 0.5
    done
    echo "gmo serve under callgrind printed no 'listening on' line in 300 s" >&2
    exit 1
}

# SIGTERM: the server drains and exits, and callgrind writes the profile.
stop() {
    kill -TERM "$server"
    wait "$server"
    trap - EXIT
}

# The profile's total instructions.
instructions() {
    sed -n 's/^summary: *\([0-9][0-9]*\).*/\1/p' "$out/$1.callgrind" | head -n 1
}

# A separate idle run rather than `callgrind_control --zero` once the server listens: calls under
# way when the counters are zeroed count as made zero times, and callgrind_annotate then books
# everything below them (the whole runtime) as the caller's own cost.
serve idle
stop
serve load
nice -n 19 cargo bench -p gmo --bench load -- \
    --base "$base" --plies "$plies" --games "$games" | tee "$out/load.txt"
stop

acknowledged=$(sed -n 's/.* \([0-9][0-9]*\) acknowledged plies.*/\1/p' "$out/load.txt")
idle=$(instructions idle)
load=$(instructions load)
echo "callgrind: gmo serve ran $load instructions (Ir) under load, $idle without requests;" \
    "($load - $idle) / $acknowledged acknowledged plies = $(((load - idle) / acknowledged))" \
    "Ir per ply; profile: $out/load.callgrind"

# The function lines follow callgrind_annotate's "file:function" header and its rule.
top() {
    callgrind_annotate --auto=no --threshold=100 "$@" "$out/load.callgrind" |
        awk '/file:function/ { on = 1; getline; next } on && NF && n < 25 { print; n++ }'
}
echo "top 25 functions by self cost (Ir):"
top --inclusive=no
echo "top 25 functions by inclusive cost (Ir):"
top --inclusive=yes

#!/bin/sh
# Builds a standalone monitor for the IPC-Trucks rules (examples/trucks) and
# runs it on the bundled agent log; prints the verdict lines.
#
# Environment (all optional):
#   HINDSIGHT            the hindsight binary (default: `cargo run` in this repository)
#   HINDSIGHT_BUILD_DIR  keep the generated Cargo project there (rebuilds are incremental)
set -eu

root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

hindsight() {
    if [ -n "${HINDSIGHT:-}" ]; then
        "$HINDSIGHT" "$@"
    else
        cargo run -q --manifest-path "$root/Cargo.toml" -p hindsight-cli -- "$@"
    fi
}

if [ -n "${HINDSIGHT_BUILD_DIR:-}" ]; then
    hindsight build "$root/examples/trucks/trucks.hind" -o "$work/trucks-monitor" --dir "$HINDSIGHT_BUILD_DIR"
else
    hindsight build "$root/examples/trucks/trucks.hind" -o "$work/trucks-monitor"
fi

# The same verdict lines as
#   hindsight check examples/trucks/trucks.hind --trace examples/trucks/trucks.jsonl
"$work/trucks-monitor" --trace "$root/examples/trucks/trucks.jsonl"

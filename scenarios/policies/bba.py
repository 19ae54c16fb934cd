#!/usr/bin/env python3
"""BBA-0 as an ABRSim external policy (standard library only).

Huang et al., "A Buffer-Based Approach to Rate Adaptation", SIGCOMM 2014: below the reservoir take the lowest
variant, above reservoir + cushion the highest, and in between map the buffer linearly onto the ladder:
    buffer < reservoir              -> 0
    buffer >= reservoir + cushion   -> N - 1
    otherwise                       -> floor((N - 1) * (buffer - reservoir) / cushion)
capped by the player's maxVariant. Reservoir 5 s and cushion 10 s by default; override them with
    python3 bba.py --reservoir 8 --cushion 12

Protocol (docs/external-policy.md): one JSON request per line on stdin, one JSON reply per line on stdout,
e.g. {"variant": 3}. Anything written to stderr is shown in ABRSim's error messages if the policy fails.
"""
import argparse
import json
import math
import sys


def choose(buffer, variant_count, max_variant, reservoir, cushion):
    """The BBA-0 variant for a buffer level (seconds)."""
    if buffer < reservoir:
        variant = 0
    elif buffer >= reservoir + cushion:
        variant = variant_count - 1
    else:
        variant = math.floor((variant_count - 1) * (buffer - reservoir) / cushion)
    return min(variant, max_variant)


def main():
    parser = argparse.ArgumentParser(description="BBA-0 external policy for ABRSim")
    parser.add_argument("--reservoir", type=float, default=5.0)
    parser.add_argument("--cushion", type=float, default=10.0)
    options = parser.parse_args()
    while True:
        line = sys.stdin.readline()
        if not line:
            return  # ABRSim closed our input: the run is over.
        request = json.loads(line)
        variant = choose(
            request["buffer"], len(request["ladderKbps"]), request["maxVariant"], options.reservoir, options.cushion
        )
        sys.stdout.write(json.dumps({"variant": variant}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""An agent that misbehaves on its first turn, as its one argument says (tests/agents/arena.rs):
garbage, illegal, sleep or exit."""
import json
import sys
import time

mode = sys.argv[1]
for line in sys.stdin:
    if json.loads(line)["type"] != "turn":
        continue
    if mode == "garbage":
        print("hello", flush=True)
    elif mode == "illegal":
        print(json.dumps({"move": {"from": "e2", "to": "e5"}}), flush=True)
    elif mode == "sleep":
        time.sleep(30)
    elif mode == "exit":
        print("thinking", file=sys.stderr)
        print("something broke", file=sys.stderr, flush=True)
        sys.exit(1)

#!/usr/bin/env python3
"""An agent that misbehaves on its first turn, as its one argument says (tests/agents/arena.rs):
garbage, illegal, sleep or exit; or that resigns (resign), which is no fault; or that plays its
first move and sleeps on its second turn (sleep-later); or that pushes pawns and promotes them to
queens (promote), which is no fault either."""
import json
import sys
import time



def push_pawns(turn):
    """A queen for a due pawn; else a pawn's move towards its last rank if any; else any move."""
    if turn["promotion"]:
        return {"promote": "queen"}
    game = turn["game"]
    pawns = {p["square"] for p in game["board"] if p["pawn"] and p["color"] == game["you"]}
    ahead = 1 if game["you"] == "white" else -1
    forward = [m for m in turn["legal"]
               if m["from"] in pawns and (int(m["to"][1]) - int(m["from"][1])) * ahead > 0]
    move = (forward or turn["legal"])[0]
    return {"move": {"from": move["from"], "to": move["to"]}}


mode = sys.argv[1]
turns = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] != "turn":
        continue
    turns += 1
    if mode == "sleep-later" and turns == 1:
        move = message["legal"][0]
        print(json.dumps({"move": {"from": move["from"], "to": move["to"]}}), flush=True)
        continue
    if mode == "promote":
        print(json.dumps(push_pawns(message)), flush=True)
    elif mode == "garbage":
        print("hello", flush=True)
    elif mode == "illegal":
        print(json.dumps({"move": {"from": "e2", "to": "e5"}}), flush=True)
    elif mode == "resign":
        print(json.dumps({"resign": True}), flush=True)
    elif mode in ("sleep", "sleep-later"):
        time.sleep(30)
    elif mode == "exit":
        print("thinking", file=sys.stderr)
        print("something broke", file=sys.stderr, flush=True)
        sys.exit(1)

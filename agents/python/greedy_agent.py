#!/usr/bin/env python3
"""A GMO chess agent that takes a piece when it can and never takes its own king.

It reads the same messages as random_agent.py. A move's `to_after` says what the move leaves on
its target square and who owns it: when the target held an enemy piece that is now gone or ours,
the move captured. `loses_own_king` marks a move that removes one of our own kings (and so loses
at once); `exposes_king` one after which the other side could take one of them.
"""
import json
import random
import sys


def enemy_on(game, square):
    """Whether an enemy piece stands on `square` in the game view."""
    return any(p["square"] == square and p["color"] != game["you"] for p in game["board"])


def score(game, move):
    if move["loses_own_king"]:
        return -100
    capture = 10 if enemy_on(game, move["to"]) else 0
    return capture - (5 if move["exposes_king"] else 0) + random.random()


def choose(turn):
    if turn["promotion"]:
        return {"promote": "queen" if "queen" in turn["promotion"] else turn["promotion"][0]}
    best = max(turn["legal"], key=lambda move: score(turn["game"], move))
    return {"move": {"from": best["from"], "to": best["to"]}}


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "turn":
            print(json.dumps(choose(message)), flush=True)


if __name__ == "__main__":
    main()

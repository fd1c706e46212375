#!/usr/bin/env python3
"""A GMO chess agent that plays a random legal move (docs/agents.md).

The host (`gmo arena`, `gmo agent play`) writes one JSON object a line to our standard input
and reads our answers, one a line, from our standard output. Print your own notes to standard
error: that is the agent's log. Replace `choose` to make it play better.
"""
import json
import random
import sys


def choose(turn):
    """The answer to a `turn`: it lists every legal move of our side, or the promotion choices."""
    if turn["promotion"]:
        return {"promote": random.choice(turn["promotion"])}
    move = random.choice(turn["legal"])
    return {"move": {"from": move["from"], "to": move["to"]}}


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "turn":
            print(json.dumps(choose(message)), flush=True)
        elif message["type"] == "end":
            print("game over:", message["status"], message["reason"], file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The random agent, noting when each turn line arrives (time.time()) in $TURN_LOG."""
import json, os, random, sys, time
log = open(os.environ["TURN_LOG"], "a", buffering=1)
for line in sys.stdin:
    now = time.time()
    message = json.loads(line)
    if message["type"] == "turn":
        log.write(f"{now:.6f} {message['game']['moves_played']}\n")
        if message["promotion"]:
            print(json.dumps({"promote": random.choice(message["promotion"])}), flush=True)
        else:
            move = random.choice([m for m in message["legal"] if not m["loses_own_king"]] or message["legal"])
            print(json.dumps({"move": {"from": move["from"], "to": move["to"]}}), flush=True)

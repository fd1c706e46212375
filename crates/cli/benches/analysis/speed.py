#!/usr/bin/env python3
"""Seconds to analyse finished games, for docs/performance.md ("Analysis", issue 35).

Usage: speed.py BASE_URL make N PLIES > games.txt     (N finished games of PLIES plies, ids out)
       speed.py BASE_URL analyse [OUT] < games.txt      (asks for every analysis at once, then
                                                          waits: seconds per game and in all;
                                                          OUT: the analyses, as JSON)
       speed.py - compare A B                           (judgements of two such files: how many
                                                          plies agree, and where they differ)

The games are played over HTTP by this script: both seats take the default preset and a king,
every ply is a legal move (a move to an empty square where there is one, so that games last),
and the side to move resigns after PLIES plies; a game that ends sooner is thrown away. The server
must allow as many analyses per address as games are asked (--max-analyses-per-client).
Standard library only.
"""
import json
import random
import sys
import time
import urllib.error
import urllib.request


def call(base, method, path, token=None, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def set_up(base):
    status, game = call(base, "POST", "/api/games", body={"clock": {"initial_ms": 3_600_000}})
    assert status == 201, (status, game)
    gid = game["id"]
    tokens = {side: game["seats"][side]["token"] for side in ("white", "black")}
    for side, king in (("white", "d1"), ("black", "d8")):
        for method, path, body in (
            ("PUT", "preset", {"preset": "default"}),
            ("POST", "kings/" + king, {}),
            ("POST", "ready", {}),
        ):
            status, answer = call(base, method, f"/api/games/{gid}/{path}", tokens[side], body)
            assert status == 200, (path, status, answer)
    return gid, tokens


def play(base, plies, rng):
    """A finished game of exactly `plies` plies, or None when it ended sooner."""
    gid, tokens = set_up(base)
    status, game = call(base, "GET", f"/api/games/{gid}", tokens["white"])
    for _ in range(plies):
        side = game["to_move"]
        if side is None:
            return None
        token = tokens[side]
        status, legal = call(base, "GET", f"/api/games/{gid}/legal", token)
        assert status == 200, (status, legal)
        if legal.get("promotion"):
            status, answer = call(base, "POST", f"/api/games/{gid}/promotion", token,
                                  {"genome": "queen"})
        else:
            occupied = {piece["square"] for piece in game["board"]}
            moves = legal["legal"]
            quiet = [m for m in moves if m["to"] not in occupied]
            move = rng.choice(quiet or moves)
            status, answer = call(base, "POST", f"/api/games/{gid}/moves", token,
                                  {"from": move["from"], "to": move["to"]})
        if status != 200:
            return None
        game = answer["game"]
    if game["to_move"] is None:
        return None
    status, _ = call(base, "POST", f"/api/games/{gid}/resign", tokens[game["to_move"]], {})
    return gid if status == 200 else None


def make(base, count, plies):
    rng = random.Random(36)
    made = 0
    while made < count:
        gid = play(base, plies, rng)
        if gid:
            print(gid, flush=True)
            made += 1


def analyse(base, ids, out=None):
    asked = time.monotonic()
    for gid in ids:
        status, answer = call(base, "POST", f"/api/games/{gid}/analysis")
        assert status == 202, (gid, status, answer)
    done, analyses = {}, {}
    while len(done) < len(ids):
        for gid in ids:
            if gid in done:
                continue
            status, answer = call(base, "GET", f"/api/games/{gid}/analysis")
            assert status == 200, (gid, status, answer)
            if answer["state"] == "done":
                done[gid] = time.monotonic() - asked
                analyses[gid] = answer
                plies = len(answer["plies"])
                print(f"{gid}: {plies} plies analysed, done {done[gid]:.2f} s after the ask",
                      flush=True)
            elif answer["state"] not in ("queued", "running"):
                sys.exit(f"{gid}: {answer['state']}")
        time.sleep(0.05)
    total = max(done.values())
    print(f"{len(ids)} games: all done in {total:.2f} s, {total / len(ids):.2f} s a game")
    if out:
        with open(out, "w") as file:
            json.dump(analyses, file)


def compare(a_path, b_path):
    with open(a_path) as a_file, open(b_path) as b_file:
        a, b = json.load(a_file), json.load(b_file)
    plies = agree = marked_a = marked_b = 0
    for gid, analysis in a.items():
        for mine, theirs in zip(analysis["plies"], b[gid]["plies"]):
            plies += 1
            agree += mine["judgement"] == theirs["judgement"]
            marked_a += mine["judgement"] is not None
            marked_b += theirs["judgement"] is not None
            if mine["judgement"] != theirs["judgement"]:
                print(f"{gid} ply {mine['ply']}: {mine['judgement']} against {theirs['judgement']}")
    print(f"{len(a)} games, {plies} plies: judgements agree on {agree} "
          f"({100 * agree / plies:.1f}%); plies marked: {marked_a} and {marked_b}")


def main():
    base, what = sys.argv[1], sys.argv[2]
    if what == "make":
        make(base, int(sys.argv[3]), int(sys.argv[4]))
    elif what == "analyse":
        out = sys.argv[3] if len(sys.argv) > 3 else None
        analyse(base, [line.strip() for line in sys.stdin if line.strip()], out)
    elif what == "compare":
        compare(sys.argv[3], sys.argv[4])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()

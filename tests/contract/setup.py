"""Sets up what the authenticated schemathesis run aims at, on a running `gmo serve`, and prints
it as shell assignments (`GAME=…`):

- GAME, GAME_TOKEN: a game between two people, started (both presets loaded, kings marked, both
  ready), and White's token, so that moves, resignation and the rest reach the engine;
- ENDED, ENDED_TOKEN: a game aborted in setup whose rematch both seats asked for (its record
  answers; White's stream sends the view, both rematch offers and the rematch, then closes: a
  seat's stream of a finished game without its rematch would wait for one);
- LAB, LAB_TOKEN: a lab with the default preset on both sides;
- SEEK, SEEK_TOKEN: a seek paired already (its stream says `paired` and closes; withdrawing or
  accepting it is 409);
- USER, USER_TOKEN: an account and a personal token of it (scopes play and events), so that the
  account and users routes answer for someone (the token routes still need the session: 401);
- EVENT, TEAM_TOKEN: an event the account organises, in registration with two teams, and one
  team's token, so that the organiser's and the team's routes reach it.

Usage: python3 setup.py http://127.0.0.1:PORT
"""

import json
import sys
import urllib.request


def call(base, method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def account(base):
    """Signs up `contract_user`, makes a personal token with the session → (name, token)."""
    name, password = "contract_user", "contract password"
    request = urllib.request.Request(
        base + "/api/account",
        data=json.dumps({"username": name, "password": password}).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        cookie = response.headers["Set-Cookie"].split(";", 1)[0]
    request = urllib.request.Request(
        base + "/api/account/tokens",
        data=json.dumps({"description": "contract", "scopes": ["play", "events"]}).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Cookie": cookie},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        token = json.load(response)["token"]
    return name, token


def event(base, token):
    """An event of the account with the personal token `token`, two teams → (id, a team token)."""
    made = call(base, "POST", "/api/events",
                {"name": "contract", "format": "swiss", "rounds": 3, "clock": {"initial_ms": 60_000}},
                token)
    teams = [call(base, "POST", f"/api/events/{made['id']}/teams", {"name": name}, token)
             for name in ("Red", "Blue")]
    joined = call(base, "POST", f"/api/events/{made['id']}/join", {"code": teams[0]["code"]})
    return made["id"], joined["token"]


def people_game(base):
    created = call(base, "POST", "/api/games", {})
    return created["id"], created["seats"]["white"]["token"], created["seats"]["black"]["token"]


def main():
    base = sys.argv[1].rstrip("/")
    game, white, black = people_game(base)
    for token, king in ((white, "e1"), (black, "e8")):
        call(base, "PUT", f"/api/games/{game}/preset", {"preset": "default"}, token)
        call(base, "POST", f"/api/games/{game}/kings/{king}", token=token)
        view = call(base, "POST", f"/api/games/{game}/ready", token=token)
    assert view["status"] == "in_progress", view
    ended, ended_white, ended_black = people_game(base)
    view = call(base, "POST", f"/api/games/{ended}/abort", token=ended_white)
    assert view["status"] == "aborted", view
    for token in (ended_white, ended_black):
        rematch = call(base, "POST", f"/api/games/{ended}/rematch", token=token)
    assert rematch["game"] is not None, rematch
    lab = call(base, "POST", "/api/labs", {})
    for color in ("white", "black"):
        call(base, "POST", f"/api/labs/{lab['id']}/preset", {"color": color, "preset": "default"}, lab["token"])
    # A clock nobody else asks for, so that the two seeks pair with each other.
    clock = {"initial_ms": 421_000, "increment_ms": 7_000}
    seek = call(base, "POST", "/api/seeks", {"clock": clock, "color": "white"})
    call(base, "POST", "/api/seeks", {"clock": clock, "color": "black"})
    values = {
        "GAME": game,
        "GAME_TOKEN": white,
        "ENDED": ended,
        "ENDED_TOKEN": ended_white,
        "LAB": lab["id"],
        "LAB_TOKEN": lab["token"],
        "SEEK": seek["id"],
        "SEEK_TOKEN": seek["token"],
    }
    values["USER"], values["USER_TOKEN"] = account(base)
    values["EVENT"], values["TEAM_TOKEN"] = event(base, values["USER_TOKEN"])
    for name, value in values.items():
        print(f"{name}={value}")


if __name__ == "__main__":
    main()

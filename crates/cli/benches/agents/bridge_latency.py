#!/usr/bin/env python3
"""Time from a person's move (its request sent, and its answer received) to the bot's agent reading its `turn` line,
through `gmo agent play` (docs/performance.md, "The bridge").
Usage: crates/cli/benches/agents/bridge_latency.py GMO_BINARY PLIES (a release build: target/release/gmo)"""
import urllib.error, json, os, subprocess, sys, tempfile, time, urllib.request, http.cookiejar, socket, statistics

gmo, plies = sys.argv[1], int(sys.argv[2])
work = tempfile.mkdtemp()
port = socket.socket(); port.bind(("127.0.0.1", 0)); p = port.getsockname()[1]; port.close()
base = f"http://127.0.0.1:{p}"
server = subprocess.Popen([gmo, "serve", "--bind", f"127.0.0.1:{p}", "--database-url", f"sqlite://{work}/gmo.db", "--rate-limit", "0"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "RUST_LOG": "warn"})
def req(method, path, body=None, token=None, cookie=None):
    r = urllib.request.Request(base + path, method=method, data=None if body is None else json.dumps(body).encode())
    r.add_header("content-type", "application/json")
    if token: r.add_header("authorization", "Bearer " + token)
    if cookie: r.add_header("cookie", cookie)
    with urllib.request.urlopen(r) as resp:
        text = resp.read().decode(); return resp.headers, (json.loads(text) if text.strip() else None)
for _ in range(100):
    try: req("GET", "/api/config"); break
    except Exception: time.sleep(0.1)
def account(name, scope):
    headers, _ = req("POST", "/api/account", {"username": name, "password": "correct horse battery"})
    cookie = headers["set-cookie"].split(";")[0]
    if scope == "bot": req("POST", "/api/account/bot", cookie=cookie)
    _, made = req("POST", "/api/account/tokens", {"description": "x", "scopes": [scope]}, cookie=cookie)
    return made["token"]
bot, person = account("latencybot", "bot"), account("ada", "play")
turns = f"{work}/turns.log"
bridge = subprocess.Popen([gmo, "agent", "play", "--server", base, "--token", bot, "--", "python3", os.path.join(os.path.dirname(os.path.abspath(__file__)), "latency_agent.py")],
                          stdout=subprocess.DEVNULL, stderr=open(f"{work}/bridge.log", "w"), env={**os.environ, "TURN_LOG": turns})
time.sleep(1.5)
_, ch = req("POST", "/api/challenges/latencybot", {"clock": {"initial_ms": 3_600_000}, "color": "white"}, token=person)
game = None
for _ in range(100):
    _, view = req("GET", "/api/account", token=person)
    time.sleep(0.1)
    # the accepted challenge's game: from the person's event stream's first lines
    r = urllib.request.Request(base + "/api/stream/event"); r.add_header("authorization", "Bearer " + person)
    with urllib.request.urlopen(r, timeout=5) as s:
        for raw in s:
            line = json.loads(raw)
            if line.get("type") == "game_start": game = line["game"]; break
            if line.get("type") == "challenge": break
    if game: break
gid, seat = game["id"], game["token"]
req("PUT", f"/api/games/{gid}/preset", {"preset": "default"}, token=seat)
req("POST", f"/api/games/{gid}/kings/d1", {}, token=seat)
req("POST", f"/api/games/{gid}/ready", {}, token=seat)
def seen():
    try: return open(turns).read().split("\n")[:-1]
    except FileNotFoundError: return []
lat = []
while len(lat) < plies:
    _, view = req("GET", f"/api/games/{gid}", token=seat)
    if view["status"] != "in_progress": break
    if view["to_move"] != "white": time.sleep(0.005); continue
    _, legal = req("GET", f"/api/games/{gid}/legal", token=seat)
    if legal["promotion"]: req("POST", f"/api/games/{gid}/promotion", {"genome": legal["promotion"][0]}, token=seat); continue
    moves = [m for m in legal["legal"] if not m["loses_own_king"] and not m["exposes_king"]] or legal["legal"]
    m = moves[len(lat) % len(moves)]
    before = len(seen())
    sent = time.time()
    try:
        req("POST", f"/api/games/{gid}/moves", {"from": m["from"], "to": m["to"]}, token=seat)
    except urllib.error.HTTPError:
        time.sleep(0.05); continue  # frozen for a moment, or not our turn yet
    t0 = time.time()
    while len(seen()) == before: time.sleep(0.0005)
    got = float(seen()[-1].split()[0])
    lat.append(((got - sent) * 1000, (got - t0) * 1000))
bridge.kill(); server.kill()
for k, what in ((0, "from the move's request sent"), (1, "from its answer received")):
    xs = sorted(x[k] for x in lat)
    print(f"{len(xs)} turns, {what}: median {statistics.median(xs):.1f} ms, p90 {xs[int(0.9*len(xs))-1]:.1f} ms, min {xs[0]:.1f}, max {xs[-1]:.1f}")

#!/usr/bin/env python3
"""Measures attacks on the rated room (issue 34, items 1, 6 and 11) against a running
`damka` on loopback, black-box (Python 3.11 standard library only; every loop is bounded in
time).

Usage: measure-rated-room.py HOST:PORT board|jobs|farm [--addresses N] [--secs S] [--replies R]

  board  N addresses (default 40) each send 20 requests to the analysis board at once
         (`GET /api/analyse`, each a different International position, so no cache helps)
         and then one a second, for S seconds (default 90); meanwhile another address
         plays a level-1 game at 5+3 as Black (the computer moves first) and replies at
         once: the computer's reply times (p50/p99/max), games aborted, and what the
         flood got (200 / 429 / other).
  farm   two accounts of one address play rated games against each other for S seconds
         (default 40): the mule resigns at once (then, when the server refuses to rate
         that, after one move each); the farmer's rating, whether it is provisional,
         its place on the leaderboard, and how many games were rated.
  jobs   N addresses (default 16) each ask for the analysis of 6 finished games (the
         games are made first: two guests of one more address play a few moves and
         resign); then a player asks for one more: what it got (status, queue position)
         and how long until its analysis is done (up to S seconds).

Client addresses are loopback source addresses (127.0.N.x), as in measure-address-limits.py,
whose helpers this script uses. Run against a freshly started server with default flags
and a fresh database, e.g.

  d=$(mktemp -d); target/release/damka --bind 127.0.0.1:18080 \\
      --database-url sqlite://$d/damka.db --static-dir static --bitbase-pieces 0 &
  scripts/measure-rated-room.py 127.0.0.1:18080 board
"""

import importlib.util
import json
import os
import random
import sys
import threading
import time

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("limits", os.path.join(here, "measure-address-limits.py"))
limits = importlib.util.module_from_spec(spec)
spec.loader.exec_module(limits)
http, guest, Player, fmt_q, error_code = limits.http, limits.guest, limits.Player, limits.fmt_q, limits.error_code

ROOM = "international"


def random_positions(n, seed=7):
    """`n` distinct International positions, as FENs: the start with one to four men of
    each side taken off at random (legal, and a new cache entry each)."""
    rng = random.Random(seed)
    out = set()
    white = list(range(31, 51))
    black = list(range(1, 21))
    while len(out) < n:
        # Take away 1-4 men of each side at random: a legal (if odd) position each time.
        w = sorted(rng.sample(white, len(white) - rng.randint(1, 4)))
        b = sorted(rng.sample(black, len(black) - rng.randint(1, 4)))
        out.add("W:W{}:B{}".format(",".join(map(str, w)), ",".join(map(str, b))))
    return list(out)


def quote(fen):
    return fen.replace(":", "%3A").replace(",", "%2C")


def measure_board(addr, addresses=40, secs=90.0, max_replies=30):
    stop = threading.Event()
    tally = {}
    lock = threading.Lock()
    fens = random_positions(addresses * (20 + int(secs) + 5))

    def count(key):
        with lock:
            tally[key] = tally.get(key, 0) + 1

    def flood(i):
        src = f"127.0.20.{i + 2}"
        mine = fens[i::addresses]
        k = 0

        def one():
            nonlocal k
            fen = mine[k % len(mine)]
            k += 1
            try:
                status, body, _ = http(addr, "GET", f"/api/analyse?variant=international&fen={quote(fen)}", None, None, src)
            except OSError:
                status, body = 0, None
            count("200" if status == 200 else f"{status} {error_code(body) if status else 'error'}")

        burst = [threading.Thread(target=one, daemon=True) for _ in range(20)]
        for t in burst:
            t.start()
        for t in burst:
            t.join()
        while not stop.is_set():
            t0 = time.time()
            one()
            stop.wait(max(0.0, 1.0 - (time.time() - t0)))

    threads = [threading.Thread(target=flood, args=(i,), daemon=True) for i in range(addresses)]
    for t in threads:
        t.start()
    print(f"board: {addresses} addresses flooding the analysis board (20 at once, then one a second)")
    time.sleep(2)

    vic = "127.0.21.2"
    replies, games, errors = [], [], []
    cookie, gid = guest(addr, vic)
    status, body, _ = http(addr, "POST", f"/api/rooms/{ROOM}/tables",
                           {"minutes": 5, "increment": 3, "seat": "black", "bot": 1}, cookie, vic)
    assert status == 201, (status, body)
    p = Player(addr, body["id"], cookie, gid, vic)
    deadline = time.time() + secs
    asked = started = time.time()
    p.ws.send({"t": "start"})
    try:
        while time.time() < deadline and len(replies) < max_replies:
            try:
                m = p.ws.message(deadline)
            except TimeoutError:
                break
            if m == "closed":
                games.append("socket closed")
                break
            p.see(m)
            t = m.get("t")
            if t == "move" and m.get("by") != p.color:
                replies.append(time.time() - asked)
            if t == "game_over":
                games.append(f"{m.get('reason')} after {time.time() - started:.0f} s")
                asked = started = time.time()
                p.ws.send({"t": "start"})
                continue
            if t == "error":
                errors.append(m.get("code"))
            if p.my_turn():
                time.sleep(0.25)
                p.move()
                asked = time.time()
    finally:
        p.ws.close()
        stop.set()
    print(f"board: level-1 replies {fmt_q(replies)}")
    print(f"board: games ended: {games or 'none'}; errors: {errors or 'none'}")
    print(f"board: flood answers: {json.dumps(dict(sorted(tally.items())))}")


def measure_jobs(addr, addresses=16, per_address=6, secs=300.0):
    # Finished games to analyse: two guests play two moves each and resign, many times.
    src = "127.0.22.2"
    # The first player is an account: its request for its own game is the real one.
    (ca, ia), (cb, ib) = account(addr, src, f"Owner{int(time.time()) % 100000}"), guest(addr, src)
    games = []
    need = addresses * per_address + 1
    # One table, game after game (colours swap): four plies, then a resignation.
    status, body, _ = http(addr, "POST", f"/api/rooms/{ROOM}/tables", {"minutes": 5, "increment": 0, "seat": "white"}, ca, src)
    assert status == 201, (status, body)
    table = body["id"]
    a = Player(addr, table, ca, ia, src)
    b = Player(addr, table, cb, ib, src)
    b.ws.send({"t": "sit", "seat": "black"})
    b.ws.until("seated", time.time() + 10)
    for _ in range(need):
        time.sleep(0.6)  # a socket's messages are rate-limited (10 a second)
        a.ws.send({"t": "start"})
        b.ws.send({"t": "start"})
        st = a.ws.until("game_started", time.time() + 10)
        b.ws.until("game_started", time.time() + 10)
        a.see(st)
        b.see(st)
        for ply in range(4):
            mover, other = (a, b) if a.my_turn() else (b, a)
            mover.move()
            ev = other.ws.until("move", time.time() + 10)
            mover.ws.until("move", time.time() + 10)
            a.see(ev)
            b.see(ev)
        a.ws.send({"t": "resign"})
        assert a.ws.until("game_over", time.time() + 10), "no game_over"
        b.ws.until("game_over", time.time() + 10)
        games.append(st["id"])
    a.ws.close()
    b.ws.close()
    print(f"jobs: {len(games)} finished games made")
    tally = {}
    t0 = time.time()
    for i in range(addresses):
        s = f"127.0.23.{i + 2}"
        c, _ = guest(addr, s)
        for g in games[i * per_address:(i + 1) * per_address]:
            status, body, _ = http(addr, "POST", f"/api/games/{g}/analysis", None, c, s)
            key = "202" if status == 202 else f"{status} {error_code(body)}"
            tally[key] = tally.get(key, 0) + 1
    print(f"jobs: {addresses} addresses asked {addresses * per_address} analyses in {time.time() - t0:.1f} s: {json.dumps(tally)}")
    s = "127.0.24.2"
    c, _ = guest(addr, s)
    g = games[-1]
    status, body, _ = http(addr, "POST", f"/api/games/{g}/analysis", None, c, s)
    print(f"jobs: another guest asks: {status} {json.dumps(body)}")
    asked = time.time()
    status, body, _ = http(addr, "POST", f"/api/games/{g}/analysis", None, ca, src)
    print(f"jobs: the account asks for its own game: {status} {json.dumps(body)}")
    if status != 202:
        return
    while time.time() - asked < secs:
        status, body, _ = http(addr, "GET", f"/api/games/{g}/analysis", None, None, s)
        if body.get("status") == "done":
            print(f"jobs: its analysis done after {time.time() - asked:.1f} s")
            return
        time.sleep(1)
    print(f"jobs: its analysis not done after {secs:.0f} s: {body.get('status')} "
          f"{body.get('queue_position', '')} {body.get('progress', '')}")


def account(addr, src, username):
    """A guest of `src` made into the account `username`: (cookie, id)."""
    cookie, gid = guest(addr, src)
    status, body, new = http(addr, "POST", "/api/account", {"username": username, "password": "a long password 1"}, cookie, src)
    assert status == 201, (status, body)
    return new or cookie, gid


def measure_farm(addr, secs=40.0):
    src = "127.0.30.2"
    tag = str(int(time.time()) % 100000)
    farmer, fid = account(addr, src, f"Farmer{tag}")
    mule, mid = account(addr, src, f"Mule{tag}")
    ends = {}
    started = time.time()
    games = 0
    one_move = False
    status, body, _ = http(addr, "POST", f"/api/rooms/{ROOM}/tables",
                           {"minutes": 5, "increment": 0, "rated": True, "seat": "white"}, farmer, src)
    assert status == 201, (status, body)
    table = body["id"]
    f = Player(addr, table, farmer, fid, src)
    m = Player(addr, table, mule, mid, src)
    m.ws.send({"t": "sit", "seat": "black"})
    m.ws.until("seated", time.time() + 10)
    while time.time() - started < secs:
        # A breath between games: a socket's messages are rate-limited (10 a second).
        time.sleep(0.3)
        f.ws.send({"t": "start"})
        m.ws.send({"t": "start"})
        st = f.ws.until("game_started", time.time() + 10)
        m.ws.until("game_started", time.time() + 10)
        f.see(st)
        m.see(st)
        if one_move:
            first, second = (f, m) if f.my_turn() else (m, f)
            first.move()
            second.see(second.ws.until("move", time.time() + 10))
            second.move()
            first.ws.until("move", time.time() + 10)
            first.ws.until("move", time.time() + 10)
        m.ws.send({"t": "resign"})
        over = f.ws.until("game_over", time.time() + 10) or {}
        m.ws.until("game_over", time.time() + 10)
        games += 1
        key = f"{over.get('reason')}{' rated' if over.get('ratings') else ''}{' unrated:' + st['unrated'] if st.get('unrated') else ''}"
        ends[key] = ends.get(key, 0) + 1
        if over.get("reason") == "aborted" and not one_move:
            one_move = True  # the server no longer rates a resignation before the first moves
    f.ws.close()
    m.ws.close()
    _, me, _ = http(addr, "GET", "/api/me", None, farmer, src)
    r = (me.get("ratings") or {}).get(ROOM, {})
    _, board, _ = http(addr, "GET", f"/api/leaderboard/{ROOM}", None, None, src)
    names = [p.get("username") for p in (board.get("players") or [])]
    place = names.index(f"Farmer{tag}") + 1 if f"Farmer{tag}" in names else None
    print(f"farm: {games} games in {time.time() - started:.0f} s: {json.dumps(ends)}")
    print(f"farm: the farmer's {ROOM} rating {r.get('rating')} (RD {r.get('rd')}, {r.get('games')} rated games, "
          f"{'provisional' if r.get('provisional') else 'established'}); leaderboard place: {place or 'not listed'}")


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    addr, what = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]

    def opt(name, default, kind=float):
        return kind(args[args.index(name) + 1]) if name in args else default

    if what == "board":
        measure_board(addr, opt("--addresses", 40, int), opt("--secs", 90.0), opt("--replies", 30, int))
    elif what == "farm":
        measure_farm(addr, opt("--secs", 40.0))
    elif what == "jobs":
        measure_jobs(addr, opt("--addresses", 16, int), 6, opt("--secs", 300.0))
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Measures issue 34's lookups against a running `damka` on loopback, black-box (Python 3
standard library; the HTTP and statistics helpers of measure-address-limits.py; every loop is
bounded in time and stops by itself). Meant for a database filled by
`cargo bench -p damka-server --bench seed` (accounts seed0..seed4).

Usage: measure-lookups.py HOST:PORT WHAT [--user NAME] [--n N] [--secs N] [--threads N]

WHAT, one of:
  profile  N (default 100) profiles of --user (default seed1), one after the other, each
           from an address of its own (so no budget is met): time to answer, p50/p90/p99;
           then the same for a page of the player's games, and one whole PDN download of
           the player (seconds, bytes, games).
  flood    --threads (16) clients of ONE address ask for --user's profile and PDN as fast as
           they are answered for --secs (30); meanwhile other addresses: an account asks
           for /api/me every 0.2 s, signs in every second, a guest opens a table socket
           (and waits for its state) every 0.5 s. Prints the flood's statuses and every
           answer the others got that was not a success (the 503s the issue counted).
           Run measure-address-limits.py HOST:PORT computer --human-only --secs N beside it for
           the move round trip.
"""

import importlib.util
import os
import sys
import threading
import time

_spec = importlib.util.spec_from_file_location(
    "limits", os.path.join(os.path.dirname(os.path.abspath(__file__)), "measure-address-limits.py")
)
a3 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(a3)
http, fmt_q, ws_open, guest = a3.http, a3.fmt_q, a3.ws_open, a3.guest


def opt(name, default):
    if name in sys.argv:
        return type(default)(sys.argv[sys.argv.index(name) + 1])
    return default


def timed(addr, path, src):
    t = time.time()
    status, body, _ = http(addr, "GET", path, src=src)
    return time.time() - t, status, body


def profile(addr):
    user, n = opt("--user", "seed1"), opt("--n", 100)
    for label, path in (
        ("profile", f"/api/players/{user}"),
        ("games page", f"/api/players/{user}/games?limit=20"),
    ):
        times, statuses = [], {}
        for i in range(n):
            src = f"127.0.{40 + i // 250}.{1 + i % 250}"
            try:
                dt, status, _ = timed(addr, path, src)
            except OSError as e:
                status, dt = repr(e), None
            statuses[status] = statuses.get(status, 0) + 1
            if status == 200:
                times.append(dt)
        print(f"profile: {label} of {user}: {fmt_q(times, 'ms', 1000)}; statuses {statuses}")
    if "--no-pdn" in sys.argv:
        return
    t = time.time()
    status, body, _ = http(addr, "GET", f"/api/players/{user}/pdn", src="127.0.39.1")
    took = time.time() - t
    raw = body if isinstance(body, bytes) else str(body).encode()
    print(
        f"profile: PDN of {user}: status {status}, {took:.2f} s, {len(raw) / 1e6:.1f} MB, "
        f"{raw.count(b'[Event ')} games"
    )


def flood(addr):
    user, secs, threads = opt("--user", "seed1"), opt("--secs", 30), opt("--threads", 16)
    attacker = "127.0.50.1"
    stop = time.time() + secs
    lock = threading.Lock()
    flood_st, others = {}, {}
    ok = {"me": 0, "sign_in": 0, "socket": 0}

    def count(d, k):
        with lock:
            d[k] = d.get(k, 0) + 1

    def attack(i):
        paths = [f"/api/players/{user}", f"/api/players/{user}/pdn"]
        j = i
        while time.time() < stop:
            try:
                status, _, _ = http(addr, "GET", paths[j % 2], src=attacker)
            except OSError as e:
                status = type(e).__name__
            count(flood_st, status)
            j += 1

    # The others: an account of their own, and a table to open sockets on.
    me_src, sign_src, sock_src = "127.0.51.1", "127.0.52.1", "127.0.53.1"
    cookie, _ = guest(addr, me_src)
    uname = f"other{os.getpid() % 100000}"
    status, body, acct = http(
        addr, "POST", "/api/account", {"username": uname, "password": "a long password"}, cookie, me_src
    )
    assert status == 201, (status, body)
    sock_cookie, _ = guest(addr, sock_src)
    status, body, _ = http(
        addr, "POST", "/api/rooms/russian/tables", {"minutes": 15, "increment": 10}, sock_cookie, sock_src
    )
    assert status == 201, (status, body)
    table = body["id"]

    def loop(kind, every, act):
        while time.time() < stop:
            t = time.time()
            try:
                status = act()
            except OSError as e:
                status = type(e).__name__
            if status in (200, 101):
                with lock:
                    ok[kind] += 1
            else:
                count(others, f"{kind} {status}")
            time.sleep(max(0.0, t + every - time.time()))

    def me():
        return http(addr, "GET", "/api/me", cookie=acct, src=me_src)[0]

    def sign_in():
        return http(
            addr, "POST", "/api/session", {"username": uname, "password": "a long password"}, src=sign_src
        )[0]

    def socket_open():
        s, rest = ws_open(addr, f"/ws/tables/{table}", sock_cookie, sock_src)
        if s is None:
            return rest.decode(errors="replace")
        w = a3.Ws(s, rest)
        got = w.until("state", time.time() + 5)
        w.close()
        return 101 if got else "no state"

    ts = [threading.Thread(target=attack, args=(i,), daemon=True) for i in range(threads)]
    ts += [
        threading.Thread(target=loop, args=("me", 0.2, me), daemon=True),
        threading.Thread(target=loop, args=("sign_in", 1.0, sign_in), daemon=True),
        threading.Thread(target=loop, args=("socket", 0.5, socket_open), daemon=True),
    ]
    for t in ts:
        t.start()
    for t in ts:
        t.join(secs + 30)
    print(f"flood: {threads} clients of one address for {secs} s: statuses {flood_st}")
    print(f"flood: others succeeded {ok}; failed {others or 'never'}")


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    addr, what = sys.argv[1], sys.argv[2]
    {"profile": profile, "flood": flood}[what](addr)


if __name__ == "__main__":
    main()

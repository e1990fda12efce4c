#!/usr/bin/env python3
"""Measures the issue-34 attacks on accounts ("Abuse, round four", items 4, 5 and 10)
against a running `damka` on loopback, black-box (raw HTTP and WebSocket, Python 3.11
standard library only; every loop is bounded and stops by itself).

Usage: measure-sign-in.py HOST:PORT WHAT [--secs N]

WHAT, one or more of:
  parallel   (4a) 120 sign-ins at once on one username from 4 addresses (30 each), all
             wrong but one (the 101st is the password): real password checks made
             (damka_password_checks_total), and whether the password was found.
  lockout    (4b) a guesser at another address makes 6 wrong guesses of a public
             username; then the owner signs in with the right password from elsewhere.
  burst      (4c) 8 addresses each send 30 sign-ins at once (unknown names: every one a
             password check) and keep 30 going for --secs (default 15); meanwhile a
             real user at a ninth address signs in every 0.5 s: its latency (p50, p90,
             p99, max), and how the burst's requests ended (status counts, time-outs).
  ipv6       (4d) 300 guests made from 300 addresses of one IPv6 /64 (X-Forwarded-For:
             start the server with --trust-forwarded-for): how many were made.
  sockets    (5) an account on two devices; the second has a room socket open; the
             first signs out everywhere (and, on a second run, changes the password);
             the second then chats on its socket: whether anyone sees it, and how the
             socket ends.
  names      (10) `Admin` and `bot-1` as a guest name and a username; a guest taking an
             account's exact name.

Different client addresses are loopback source addresses (127.0.N.x, N per
measurement, so measurements against one server do not share per-address limits); the
IPv6 ones go in X-Forwarded-For. Start the server fresh, e.g.

  d=$(mktemp -d); target/debug/damka --bind 127.0.0.1:18090 \\
      --database-url sqlite://$d/damka.db --trust-forwarded-for &
  scripts/measure-sign-in.py 127.0.0.1:18090 parallel lockout ipv6 sockets names
  (restart) scripts/measure-sign-in.py 127.0.0.1:18090 burst
"""

import importlib.util
import json
import os
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("limits", os.path.join(HERE, "measure-address-limits.py"))
limits = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(limits)

http, metric, fmt_q, Ws, connect, dechunk = (
    limits.http,
    limits.metric,
    limits.fmt_q,
    limits.Ws,
    limits.connect,
    limits.dechunk,
)


def post(addr, path, body, cookie=None, src=None, forwarded=None, timeout=15):
    """A POST with an optional X-Forwarded-For: (status, JSON or bytes, cookie)."""
    s = connect(addr, src, timeout)
    data = json.dumps(body).encode()
    head = f"POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n"
    head += "Content-Type: application/json\r\n"
    if cookie:
        head += f"Cookie: {cookie}\r\n"
    if forwarded:
        head += f"X-Forwarded-For: {forwarded}\r\n"
    head += f"Content-Length: {len(data)}\r\n\r\n"
    s.sendall(head.encode() + data)
    out = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        out += chunk
    s.close()
    head, _, raw = out.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    cookie = None
    for line in head.split(b"\r\n"):
        low = line.lower()
        if low.startswith(b"set-cookie:"):
            cookie = line.split(b":", 1)[1].strip().split(b";")[0].decode()
        if low.startswith(b"transfer-encoding:") and b"chunked" in low:
            raw = dechunk(raw)
    try:
        parsed = json.loads(raw)
    except ValueError:
        parsed = raw
    return status, parsed, cookie


def account(addr, src, username, password):
    """A guest of `src` made into an account: its cookie."""
    _, _, guest = post(addr, "/api/guest", {"name": username}, src=src)
    status, body, cookie = post(
        addr, "/api/account", {"username": username, "password": password}, guest, src=src
    )
    assert status == 201, (status, body)
    return cookie


def sign_in(addr, src, username, password, timeout=15):
    return post(addr, "/api/session", {"username": username, "password": password}, src=src, timeout=timeout)


def code(body):
    return limits.error_code(body)


def parallel(addr):
    account(addr, "127.0.31.9", "Filemon", "kot filemon 1")
    before = metric(addr, "damka_password_checks_total") or 0.0
    results = [None] * 120

    def guess(i):
        password = "kot filemon 1" if i == 100 else f"guess {i}"
        try:
            results[i] = sign_in(addr, f"127.0.31.{i % 4 + 1}", "Filemon", password)[0]
        except OSError as e:
            results[i] = str(e)

    threads = [threading.Thread(target=guess, args=(i,)) for i in range(120)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    checks = (metric(addr, "damka_password_checks_total") or 0.0) - before
    counts = {}
    for r in results:
        counts[r] = counts.get(r, 0) + 1
    found = results[100] == 200
    print(f"parallel: 120 guesses at once from 4 addresses: {checks:.0f} password checks ran; "
          f"answers {dict(sorted(counts.items(), key=str))}; password found: {found}")


def lockout(addr):
    account(addr, "127.0.32.9", "Reksio", "pies reksio 1")
    answers = [sign_in(addr, "127.0.32.1", "Reksio", f"guess {i}")[0] for i in range(6)]
    status, body, _ = sign_in(addr, "127.0.32.2", "Reksio", "pies reksio 1")
    print(f"lockout: guesser's 6 wrong guesses answered {answers}; "
          f"then the owner from another address: {status} {'' if status == 200 else code(body)}")


def burst(addr, secs):
    account(addr, "127.0.33.9", "Owner", "the owner's password")
    stop = time.time() + secs
    ends = {}
    lock = threading.Lock()

    def attacker(a, w):
        n = 0
        while time.time() < stop:
            n += 1
            t0 = time.time()
            try:
                status, _, _ = sign_in(addr, f"127.0.34.{a}", f"nobody-{a}-{w}-{n}", "guess", timeout=12)
                end = status
            except OSError:
                end = "client time-out (12 s)" if time.time() - t0 >= 11.9 else "error"
            with lock:
                ends[end] = ends.get(end, 0) + 1
            if end == 429:
                time.sleep(0.5)

    latencies = []
    failures = {}

    def user():
        while time.time() < stop:
            t0 = time.time()
            try:
                status, body, _ = sign_in(addr, "127.0.35.1", "Owner", "the owner's password", timeout=30)
            except OSError:
                status, body = "error", None
            dt = time.time() - t0
            if status == 200:
                latencies.append(dt)
            else:
                key = f"{status} {code(body)}"
                failures[key] = failures.get(key, 0) + 1
            time.sleep(max(0.0, 0.5 - dt))

    threads = [threading.Thread(target=attacker, args=(a, w)) for a in range(1, 9) for w in range(30)]
    threads.append(threading.Thread(target=user))
    t0 = time.time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(f"burst: 8 addresses x 30 sign-ins at a time for {secs} s (load {' '.join(limits.load())}); "
          f"{time.time() - t0:.1f} s in all")
    print(f"  the burst's requests ended: {dict(sorted(ends.items(), key=str))}")
    print(f"  a real user's sign-in: {fmt_q(latencies)}; failed: {failures or 'none'}")


def ipv6(addr):
    made = 0
    refused = {}
    for i in range(300):
        status, body, _ = post(addr, "/api/guest", {}, src="127.0.36.1", forwarded=f"2001:db8:1:2::{i + 1:x}")
        if status == 200:
            made += 1
        else:
            refused[f"{status} {code(body)}"] = refused.get(f"{status} {code(body)}", 0) + 1
    print(f"ipv6: 300 guests from 300 addresses of 2001:db8:1:2::/64: {made} made; refused {refused or 'none'}")


def sockets(addr):
    for how in ["sign out everywhere", "password change"]:
        tag = "A" if how.startswith("sign") else "B"
        name, password = f"Ala{tag}", "ala ma kota"
        here = account(addr, "127.0.37.1", name, password)
        there = sign_in(addr, "127.0.37.2", name, password)[2]
        _, _, watcher_cookie = post(addr, "/api/guest", {"name": f"Watcher{tag}"}, src="127.0.37.3")
        device = Ws.open(addr, "/ws/rooms/russian", there, "127.0.37.2")
        watcher = Ws.open(addr, "/ws/rooms/russian", watcher_cookie, "127.0.37.3")
        for ws in (device, watcher):
            ws.until("room", time.time() + 5)
        if how.startswith("sign"):
            status, _, _ = limits.http(addr, "DELETE", "/api/session?all=true", cookie=here, src="127.0.37.1")
        else:
            status, _, _ = post(addr, "/api/account/password", {"old": password, "new": "kot ma ale"}, here,
                                src="127.0.37.1")
        t_end = time.time()
        try:
            device.send({"t": "chat", "text": f"still here {tag}", "ack": 1})
        except OSError:
            pass
        closed = None
        try:
            while True:
                m = device.message(t_end + 3)
                if m == "closed":
                    closed = (f"closed with {device.close_code} "
                              f"{1000 * (time.time() - t_end):.0f} ms after the answer")
                    break
        except (TimeoutError, EOFError, OSError) as e:
            closed = closed or f"still open 3 s later ({type(e).__name__})"
        seen = watcher.until("chat", time.time() + 2)
        print(f"sockets ({how}: {status}): the other device's chat "
              f"{'reached the room' if seen else 'reached nobody'}; its socket {closed}")
        device.close()
        watcher.close()


def names(addr):
    out = []
    for name in ["Admin", "bot-1"]:
        status, body, _ = post(addr, "/api/guest", {"name": name}, src="127.0.38.1")
        out.append(f"guest {name!r}: {status} {'' if status == 200 else code(body)}".strip())
    for username in ["Admin", "bot-1"]:
        _, _, guest = post(addr, "/api/guest", {}, src="127.0.38.1")
        status, body, _ = post(addr, "/api/account", {"username": username, "password": "long enough"}, guest,
                               src="127.0.38.1")
        out.append(f"username {username!r}: {status} {'' if status == 201 else code(body)}".strip())
    account(addr, "127.0.38.2", "Bolek", "bolek i lolek")
    status, body, _ = post(addr, "/api/guest", {"name": "Bolek"}, src="127.0.38.1")
    out.append(f"guest named as the account 'Bolek': {status} {'' if status == 200 else code(body)}".strip())
    print("names: " + "; ".join(out))


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__)
        sys.exit(2)
    addr = args[0]
    secs = 15
    if "--secs" in args:
        secs = int(args[args.index("--secs") + 1])
    for what in args[1:]:
        if what == "parallel":
            parallel(addr)
        elif what == "lockout":
            lockout(addr)
        elif what == "burst":
            burst(addr, secs)
        elif what == "ipv6":
            ipv6(addr)
        elif what == "sockets":
            sockets(addr)
        elif what == "names":
            names(addr)


if __name__ == "__main__":
    main()

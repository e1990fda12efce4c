#!/usr/bin/env python3
"""Measures the issue-20 attacks ("Abuse, round three") against a running `damka` on
loopback, black-box (raw HTTP and WebSocket, Python 3.11 standard library only; every
loop is bounded in time and stops by itself).

Usage: measure-address-limits.py HOST:PORT WHAT [--secs N] [--no-attack] [--no-human | --human-only]

WHAT, one of:
  computer     six level-3 tables at 15+10 from two guests of one address (answered at
               once), and a level-3 computer Swiss of 64 places from the same address;
               meanwhile another address plays a level-1 game (Black: the computer moves
               first) and a third one a human table moving 5 times a second: the level-1
               reply times, aborted games, the tables the attack opened, the server's CPU,
               the human move round trip (move -> ack). --secs: the measuring window
               (default 240; the level-1 game stops after 30 replies, the rest goes on).
               --no-attack: the same two games without the attack (the baseline).
               --analyses N (with --no-attack): N analyses of a position (the analysis
               board's GET /api/analyse, each from its own address) run all along instead
               of the attack (issue 25).
               --no-human: without the human table; --human-only: only the human table
               (no attack, no level-1 game). Run the two in separate processes at once to
               keep this client's own work (its threads share one interpreter lock) out of
               the human round trip.
  tournaments  10 guests of one address each try to create 2 open tournaments in one room;
               then a guest of another address tries one.
  chat         30 guests of one address, each with a room socket, chat as fast as the
               server takes it for 20 s (--secs); a visitor of another address counts what
               reaches it.
  churn        (a) one address toggles seats (stand/sit) at as many tables as it may open
               (up to 40) for 10 s (--secs); (b) 10 guests of another address open and close
               table sockets as fast as they can for 10 s; a lobby visitor of a third
               address counts the events and bytes it receives.
  pings        8 sockets of one address send WebSocket pings (100-byte payload) as fast as
               they can for up to 12 s (--secs): pongs and pong bytes received, how each
               socket was closed.

Different client addresses are loopback source addresses (127.0.N.x, N per measurement,
so measurements run against one server do not share per-address limits); the server sees
the TCP peer, no flag needed (Linux routes all of 127/8 to lo). Run each measurement
against a freshly started server with default flags and a fresh database, e.g.

  d=$(mktemp -d); target/release/damka --bind 127.0.0.1:18080 \\
      --database-url sqlite://$d/damka.db --static-dir static &
  scripts/measure-address-limits.py 127.0.0.1:18080 computer

(`computer` leaves the attacker's games and tournament running on an old server: restart
it before the next measurement). The server's CPU is read from /proc/<pid>/stat of the
process listening on PORT when it can be found.
"""

import base64
import json
import math
import os
import select
import socket
import struct
import sys
import threading
import time

ROOM = "russian"
STATS_LOCK = threading.Lock()


# ------------------------------------------------------------------ HTTP and sockets


def connect(addr, src=None, timeout=10):
    host, port = addr.split(":")
    source = (src, 0) if src else None
    return socket.create_connection((host, int(port)), timeout=timeout, source_address=source)


def http(addr, method, path, body=None, cookie=None, src=None):
    """One request; (status, parsed JSON body or raw bytes, the cookie set or None)."""
    s = connect(addr, src)
    data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n"
    if cookie:
        head += f"Cookie: {cookie}\r\n"
    if method == "POST":
        head += "Content-Type: application/json\r\n"
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
    set_cookie = None
    chunked = False
    for line in head.split(b"\r\n"):
        low = line.lower()
        if low.startswith(b"set-cookie:"):
            set_cookie = line.split(b":", 1)[1].strip().split(b";")[0].decode()
        if low.startswith(b"transfer-encoding:") and b"chunked" in low:
            chunked = True
    if chunked:
        raw = dechunk(raw)
    try:
        parsed = json.loads(raw)
    except ValueError:
        parsed = raw
    return status, parsed, set_cookie


def dechunk(raw):
    out = b""
    while raw:
        size, _, raw = raw.partition(b"\r\n")
        n = int(size.split(b";")[0], 16)
        if n == 0:
            break
        out += raw[:n]
        raw = raw[n + 2 :]
    return out


def error_code(body):
    if isinstance(body, dict) and isinstance(body.get("error"), dict):
        return body["error"].get("code")
    return str(body)[:80]


def guest(addr, src):
    """A new guest from `src`: (cookie, id)."""
    status, body, cookie = http(addr, "POST", "/api/guest", {}, src=src)
    assert status == 200, (status, body)
    return cookie, body["id"]


def ws_open(addr, path, cookie=None, src=None, timeout=10):
    """A raw WebSocket: (socket, bytes already read) or (None, the refusal's status line)."""
    s = connect(addr, src, timeout)
    key = base64.b64encode(os.urandom(16)).decode()
    head = (
        f"GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
    )
    if cookie:
        head += f"Cookie: {cookie}\r\n"
    s.sendall((head + "\r\n").encode())
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = s.recv(4096)
        if not chunk:
            s.close()
            return None, b"closed"
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    if b" 101 " not in head.split(b"\r\n")[0]:
        s.close()
        return None, head.split(b"\r\n")[0]
    return s, rest


def frame_bytes(opcode, payload, mask=None):
    """A client frame (masked)."""
    mask = mask or os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    n = len(payload)
    head = bytes([0x80 | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    else:
        head += bytes([0x80 | 126]) + struct.pack(">H", n)
    return head + mask + masked


class Ws:
    """A client WebSocket: reads server frames, answers the server's pings, counts bytes."""

    def __init__(self, sock, rest=b""):
        self.s = sock
        self.buf = rest
        self.bytes_in = len(rest)
        self.close_code = None
        self.lock = threading.Lock()

    @classmethod
    def open(cls, addr, path, cookie=None, src=None):
        s, rest = ws_open(addr, path, cookie, src)
        if s is None:
            raise ConnectionError(rest.decode(errors="replace"))
        return cls(s, rest)

    def _need(self, n, deadline):
        while len(self.buf) < n:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError
            self.s.settimeout(left)
            try:
                chunk = self.s.recv(1 << 20)
            except socket.timeout:
                raise TimeoutError from None
            if not chunk:
                raise EOFError
            self.bytes_in += len(chunk)
            self.buf += chunk

    def frame(self, deadline):
        self._need(2, deadline)
        b0, b1 = self.buf[0], self.buf[1]
        n, off = b1 & 0x7F, 2
        if n == 126:
            self._need(4, deadline)
            n, off = struct.unpack(">H", self.buf[2:4])[0], 4
        elif n == 127:
            self._need(10, deadline)
            n, off = struct.unpack(">Q", self.buf[2:10])[0], 10
        self._need(off + n, deadline)
        payload, self.buf = self.buf[off : off + n], self.buf[off + n :]
        return b0 & 0x0F, payload

    def send_frame(self, opcode, payload):
        data = frame_bytes(opcode, payload)
        with self.lock:
            self.s.sendall(data)

    def send(self, msg):
        self.send_frame(1, json.dumps(msg).encode())

    def message(self, deadline):
        """The next JSON text message; "closed" once the server closed (code kept)."""
        while True:
            op, payload = self.frame(deadline)
            if op == 1:
                return json.loads(payload)
            if op == 8:
                self.close_code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
                return "closed"
            if op == 9:
                self.send_frame(10, payload)

    def until(self, t, deadline):
        """The first message of type `t` (an error with an ack too); None on timeout."""
        try:
            while True:
                m = self.message(deadline)
                if m == "closed":
                    return None
                if m.get("t") == t:
                    return m
        except (TimeoutError, EOFError, OSError):
            return None

    def close(self):
        try:
            self.send_frame(8, struct.pack(">H", 1000))
        except OSError:
            pass
        try:
            self.s.close()
        except OSError:
            pass


def server_pid(addr):
    """The pid of the process listening on addr's port (root, Linux), or None."""
    port = int(addr.split(":")[1])
    inodes = set()
    for f in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(f).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if int(parts[1].split(":")[1], 16) == port and parts[3] == "0A":
                inodes.add(parts[9])
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                if link.startswith("socket:[") and link[8:-1] in inodes:
                    return int(pid)
        except OSError:
            continue
    return None


def cpu_seconds(pid):
    if pid is None:
        return None
    try:
        stat = open(f"/proc/{pid}/stat").read()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def metric(addr, name):
    """A counter of GET /metrics (the server's own bind), or None."""
    try:
        status, body, _ = http(addr, "GET", "/metrics")
    except OSError:
        return None
    if status != 200 or not isinstance(body, bytes):
        return None
    for line in body.decode(errors="replace").splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None


def quantiles(xs):
    """p50, p90, p99, max of a list (nearest rank)."""
    if not xs:
        return None
    s = sorted(xs)

    def q(p):
        return s[min(len(s) - 1, max(0, math.ceil(p * len(s)) - 1))]

    return q(0.5), q(0.9), q(0.99), s[-1]


def fmt_q(xs, unit="s", scale=1.0):
    q = quantiles(xs)
    if q is None:
        return "none"
    return "p50 {:.3f} p90 {:.3f} p99 {:.3f} max {:.3f} {} (n={})".format(
        *(v * scale for v in q), unit, len(xs)
    )


def load():
    return open("/proc/loadavg").read().split()[:3]


# ------------------------------------------------------------------ a player at a table


class Player:
    """A guest's table socket that knows its colour and moves the first legal move."""

    def __init__(self, addr, table, cookie, gid, src):
        self.ws = Ws.open(addr, f"/ws/tables/{table}", cookie, src)
        self.id = gid
        self.color = None
        self.turn = None
        self.legal = []
        self.ply = 0
        self.playing = False
        st = self.ws.until("state", time.time() + 10)
        assert st, "no state"
        self.color = (st.get("you") or {}).get("seat")
        self.see(st)

    def see(self, m):
        """Updates from a `state`, `game_started`, `move` or `game_over`."""
        t = m.get("t")
        if t == "state":
            self.playing = m.get("status") == "playing"
            self.turn, self.legal = m.get("turn"), m.get("legal") or []
            moves = m.get("moves") or []
            self.ply = moves[-1]["ply"] if moves else (m.get("opening_plies") or 0)
            for c in ("white", "black"):
                if (m.get(c) or {}).get("id") == self.id:
                    self.color = c
        elif t == "game_started":
            self.playing = True
            self.turn, self.legal = m["turn"], m.get("legal") or []
            self.ply = len(m.get("opening") or [])
            for c in ("white", "black"):
                if (m.get(c) or {}).get("id") == self.id:
                    self.color = c
        elif t == "move":
            self.turn, self.legal, self.ply = m["turn"], m.get("legal") or [], m["ply"]
        elif t == "game_over":
            self.playing = False

    def my_turn(self):
        return self.playing and self.turn == self.color and bool(self.legal)

    def move(self, ack=None):
        msg = {"t": "move", "move": self.legal[0], "ply": self.ply + 1}
        if ack is not None:
            msg["ack"] = ack
        self.ws.send(msg)
        self.legal = []


def keep_replying(p, stop, stats):
    """Plays `p` against the computer until `stop`: answers every computer move at once,
    starts the next game after each one."""
    try:
        while not stop.is_set():
            try:
                m = p.ws.message(time.time() + 0.5)
            except TimeoutError:
                continue
            if m == "closed":
                with STATS_LOCK:
                    stats["closed"] += 1
                return
            p.see(m)
            if m.get("t") == "game_over":
                with STATS_LOCK:
                    stats["games_over"] += 1
                p.ws.send({"t": "start"})
            if p.my_turn():
                p.move()
                with STATS_LOCK:
                    stats["moves"] += 1
    except (EOFError, OSError):
        with STATS_LOCK:
            stats["closed"] += 1


# ------------------------------------------------------------------ 1: the computer


def room_tables(addr):
    status, body, _ = http(addr, "GET", f"/api/rooms/{ROOM}")
    if status != 200:
        return None
    tables = body.get("tables", [])
    tour = sum(1 for t in tables if t.get("tournament"))
    bots = 0
    for t in tables:
        seats = t.get("seats") or {}
        n = sum(1 for c in ("white", "black") if (seats.get(c) or {}).get("bot"))
        if n == 2:
            bots += 1
    return len(tables), tour, bots


def analyses(addr, n, stop, tally):
    """`n` position analyses running at once (issue 25): each from its own address, one
    `GET /api/analyse` of International's start after another, until `stop`."""
    status, variants, _ = http(addr, "GET", "/api/variants")
    fen = next(v["start_fen"] for v in variants if v["id"] == "international")
    path = "/api/analyse?variant=international&fen=" + fen.replace(":", "%3A").replace(",", "%2C")

    def one(src):
        while not stop.is_set():
            try:
                status, body, _ = http(addr, "GET", path, None, None, src)
            except OSError:
                status = 0
            with STATS_LOCK:
                tally["done" if status == 200 else f"http {status}"] = tally.get("done" if status == 200 else f"http {status}", 0) + 1
            if status == 429:
                time.sleep(0.5)

    for i in range(n):
        threading.Thread(target=one, args=(f"127.0.9.{i + 2}",), daemon=True).start()


def measure_computer(addr, secs=240.0, max_replies=30, attack=True, human_table_on=True, level_one_on=True, n_analyses=0):
    att, vic, hum = "127.0.1.2", "127.0.1.3", "127.0.1.4"
    pid = server_pid(addr)
    print(f"computer: server pid {pid}; load {load()}")
    stop = threading.Event()
    analysed = {}
    if n_analyses:
        analyses(addr, n_analyses, stop, analysed)
        print(f"computer: {n_analyses} position analyses running at once (International's start, one after another)")
    threads = []
    stats = {"moves": 0, "games_over": 0, "closed": 0}
    guests = [guest(addr, att) for _ in range(2)]
    opened = 0
    for cookie, gid in guests:
        for _ in range(3 if attack else 0):
            status, body, _ = http(
                addr,
                "POST",
                f"/api/rooms/{ROOM}/tables",
                {"minutes": 15, "increment": 10, "seat": "black", "bot": 3},
                cookie,
                att,
            )
            if status != 201:
                print(f"computer: level-3 table refused: {status} {error_code(body)}")
                continue
            p = Player(addr, body["id"], cookie, gid, att)
            p.ws.send({"t": "start"})
            th = threading.Thread(target=keep_replying, args=(p, stop, stats), daemon=True)
            th.start()
            threads.append((th, p))
            opened += 1
    print(f"computer: attack level-3 tables at 15+10: {opened} of 6")

    # The Swiss: started alone if the server lets it, else with the second guest.
    swiss = {
        "kind": "swiss",
        "rounds": 3,
        "minutes": 15,
        "increment": 10,
        "max_players": 64,
        "bots": True,
        "bot_level": 3,
    }
    (c1, _), (c2, _) = guests
    status, body, _ = (
        http(addr, "POST", f"/api/rooms/{ROOM}/tournaments", swiss, c1, att) if attack else (0, {}, None)
    )
    tid = body.get("id") if status == 201 else None
    if not attack:
        print("computer: no attack (--no-attack): the baseline")
    elif tid is None:
        print(f"computer: Swiss refused: {status} {error_code(body)}")
    else:
        status, body, _ = http(addr, "POST", f"/api/tournaments/{tid}/start", None, c1, att)
        how = "alone"
        if status != 200:
            print(f"computer: Swiss start alone refused: {status} {error_code(body)}")
            js, jb, _ = http(addr, "POST", f"/api/tournaments/{tid}/join", None, c2, att)
            status, body, _ = http(addr, "POST", f"/api/tournaments/{tid}/start", None, c1, att)
            how = f"with the second guest (join {js}{'' if js == 200 else ' ' + error_code(jb)})"
        if status == 200:
            boards = len((body.get("rounds") or [{}])[0].get("pairings", []))
            print(
                f"computer: Swiss 64 places level 3 started {how}: {len(body.get('players', []))} "
                f"entrants, round 1 has {boards} boards"
            )
        else:
            print(f"computer: Swiss start refused: {status} {error_code(body)}")
    time.sleep(2)  # let the searches pile up
    counts = room_tables(addr)
    print(
        "computer: room tables after the attack: {} (tournament {}, computer against computer {})".format(
            *counts
        )
    )

    # The level-1 game and the human table, measured in the same window.
    stop_at = [time.time() + secs]
    cpu0, t0 = cpu_seconds(pid), time.time()
    moves0 = metric(addr, "damka_moves_total")
    victim = {"replies": [], "games": [], "waiting": None, "errors": []}
    human = {"rtts": [], "errors": 0, "games": 0}

    def level_one():
        cookie, gid = guest(addr, vic)
        status, body, _ = http(
            addr,
            "POST",
            f"/api/rooms/{ROOM}/tables",
            {"minutes": 5, "increment": 3, "seat": "black", "bot": 1},
            cookie,
            vic,
        )
        assert status == 201, (status, body)
        p = Player(addr, body["id"], cookie, gid, vic)
        asked = started = time.time()
        pending = True  # the computer (White) moves first
        p.ws.send({"t": "start"})
        try:
            while time.time() < stop_at[0] and len(victim["replies"]) < max_replies:
                try:
                    m = p.ws.message(stop_at[0])
                except TimeoutError:
                    break
                if m == "closed":
                    victim["games"].append(f"socket closed {p.ws.close_code}")
                    return
                p.see(m)
                t = m.get("t")
                if t == "move" and m.get("by") != p.color:
                    victim["replies"].append(time.time() - asked)
                    pending = False
                if t == "game_over":
                    victim["games"].append(
                        f"{m.get('reason')} (result {m.get('result')}) after "
                        f"{time.time() - started:.0f} s"
                        + (f", the computer silent for {time.time() - asked:.0f} s" if pending else "")
                    )
                    asked = started = time.time()
                    pending = True  # until we know who moves first
                    p.ws.send({"t": "start"})
                    continue
                if t == "game_started":
                    pending = not p.my_turn()
                if t == "error":
                    victim["errors"].append(m.get("code"))
                if p.my_turn():
                    # A person takes a moment (and the socket's limit is 10 messages a
                    # second): the reply time is counted from our move, not this pause.
                    time.sleep(0.25)
                    p.move()
                    asked = time.time()
                    pending = True
            if pending:
                victim["waiting"] = time.time() - asked
        except (EOFError, OSError) as e:
            victim["games"].append(f"socket error {e!r}")
        finally:
            p.ws.close()

    def human_table():
        (ca, ia), (cb, ib) = guest(addr, hum), guest(addr, hum)
        status, body, _ = http(
            addr,
            "POST",
            f"/api/rooms/{ROOM}/tables",
            {"minutes": 15, "increment": 10, "seat": "white"},
            ca,
            hum,
        )
        assert status == 201, (status, body)
        a = Player(addr, body["id"], ca, ia, hum)
        b = Player(addr, body["id"], cb, ib, hum)
        b.ws.send({"t": "sit", "seat": "black"})
        b.ws.until("seated", time.time() + 5)
        players = [a, b]
        over = [False]

        def read_until(p, pred):
            """Reads p's socket (keeping its state) until pred(message); False on timeout."""
            while time.time() < stop_at[0]:
                m = p.ws.message(stop_at[0])
                if m == "closed":
                    raise EOFError
                p.see(m)
                if m.get("t") == "game_over":
                    over[0] = True
                if pred(m):
                    return m
            return None

        def drain(p):
            try:
                while True:
                    m = p.ws.message(time.time() + 0.002)
                    if m == "closed":
                        raise EOFError
                    p.see(m)
                    if m.get("t") == "game_over":
                        over[0] = True
            except TimeoutError:
                pass

        ack = 0
        try:
            while time.time() < stop_at[0]:
                over[0] = False
                for p in players:
                    p.ws.send({"t": "start"})
                for p in players:
                    if read_until(p, lambda m: m.get("t") == "game_started") is None:
                        return
                over[0] = False
                human["games"] += 1
                while time.time() < stop_at[0] and not over[0]:
                    mover = next((p for p in players if p.my_turn()), None)
                    if mover is None:
                        break
                    other = b if mover is a else a
                    ack += 1
                    ply = mover.ply + 1
                    sent = time.time()
                    mover.move(ack)
                    m = read_until(
                        mover,
                        lambda m: (m.get("t") == "ack" and m.get("ack") == ack)
                        or (m.get("t") == "error" and m.get("ack") == ack),
                    )
                    if m is None:
                        return
                    if m.get("t") == "ack":
                        human["rtts"].append(time.time() - sent)
                    else:
                        human["errors"] += 1
                        break
                    if read_until(other, lambda m: m.get("t") == "move" and m.get("ply") == ply) is None:
                        return
                    drain(mover)
                    drain(other)
                    time.sleep(max(0.0, sent + 0.2 - time.time()))
                if not over[0]:
                    # Not over yet (no mover known): resign, then a new game.
                    a.ws.send({"t": "resign"})
                    read_until(a, lambda m: m.get("t") == "game_over")
                drain(a)
                drain(b)
        except (TimeoutError, EOFError, OSError):
            pass
        finally:
            for p in players:
                p.ws.close()

    tv = threading.Thread(target=level_one if level_one_on else (lambda: None), daemon=True)
    th = threading.Thread(target=human_table if human_table_on else (lambda: None), daemon=True)
    tv.start()
    th.start()
    tv.join(secs + 30)
    # The window is the same whatever the level-1 game does: the human table and the
    # CPU are measured for all of it.
    time.sleep(max(0.0, t0 + secs - time.time()))
    took = time.time() - t0
    cpu1 = cpu_seconds(pid)
    moves1 = metric(addr, "damka_moves_total")
    stop_at[0] = time.time()  # ends the human table's loop
    th.join(10)
    counts = room_tables(addr)
    stop.set()
    replies = victim["replies"]
    print(f"computer: measured for {took:.0f} s; load {load()}")
    print("computer: room tables at the end: {} (tournament {}, computer against computer {})".format(*counts))
    print(f"computer: level-1 replies: {fmt_q(replies)}")
    print(f"computer: level-1 replies: {' '.join(f'{r:.2f}' for r in replies)}")
    print(
        f"computer: level-1 games ended: {victim['games'] or 'none'}; errors {victim['errors'] or 'none'}"
        + (f"; last request unanswered for {victim['waiting']:.1f} s" if victim["waiting"] and len(replies) < max_replies else "")
    )
    if cpu0 is not None and cpu1 is not None:
        print(f"computer: server CPU {100 * (cpu1 - cpu0) / took:.0f}% (of one core; 2 cores = 200%)")
    else:
        print("computer: server CPU not read (pid not found)")
    if moves0 is not None and moves1 is not None:
        print(f"computer: moves stored by the server: {(moves1 - moves0) / took:.1f}/s (damka_moves_total)")
    print(
        f"computer: human move round trip (move -> ack): {fmt_q(human['rtts'], 'ms', 1000)}, "
        f"errors {human['errors']}, games {human['games']}"
    )
    print(f"computer: attacker replies sent {stats['moves']}, its games over {stats['games_over']}")
    if n_analyses:
        print(f"computer: position analyses answered: {analysed} in {took:.0f} s")
    # Courtesy: resign the attacker's games.
    for _, p in threads:
        try:
            p.ws.send({"t": "resign"})
        except OSError:
            pass
        p.ws.close()
    if tid:
        for c in (c1, c2):
            http(addr, "POST", f"/api/tournaments/{tid}/leave", None, c, att)


# ------------------------------------------------------------------ 2: tournaments


def measure_tournaments(addr, guests=10, per_guest=2):
    att, other = "127.0.2.2", "127.0.2.3"
    body = {"kind": "round_robin", "minutes": 5, "increment": 0, "max_players": 4}
    made, refused = 0, {}
    start = time.time()
    for _ in range(guests):
        cookie, _ = guest(addr, att)
        for _ in range(per_guest):
            status, b, _ = http(addr, "POST", f"/api/rooms/{ROOM}/tournaments", body, cookie, att)
            if status == 201:
                made += 1
            else:
                k = f"{status} {error_code(b)}"
                refused[k] = refused.get(k, 0) + 1
    took = time.time() - start
    _, listed, _ = http(addr, "GET", f"/api/rooms/{ROOM}/tournaments")
    open_ = sum(1 for t in listed if t.get("status") == "open")
    print(
        f"tournaments: one address ({guests} guests x {per_guest} tries) created {made} "
        f"in {took:.1f} s; refused {refused or 'none'}; the room lists {open_} open"
    )
    cookie, _ = guest(addr, other)
    status, b, _ = http(addr, "POST", f"/api/rooms/{ROOM}/tournaments", body, cookie, other)
    print(
        f"tournaments: another address then creates one: {status}"
        + ("" if status == 201 else f" {error_code(b)}")
    )


# ------------------------------------------------------------------ 3: chat


def visitor(addr, src):
    """An anonymous room socket past its snapshot."""
    v = Ws.open(addr, f"/ws/rooms/{ROOM}", None, src)
    deadline = time.time() + 10
    while True:
        m = v.message(deadline)
        if m == "closed":
            raise ConnectionError("visitor closed")
        if m.get("t") == "room_tables" and not m.get("more"):
            break
        if m.get("t") == "room" and not m.get("more"):
            break
    return v


def watch(v, until, tally):
    """Counts `v`'s messages by type, and bytes, until `until` (a list holding a time)."""
    b0 = v.bytes_in
    try:
        while time.time() < until[0]:
            try:
                m = v.message(min(until[0], time.time() + 0.5))
            except TimeoutError:
                continue
            if m == "closed":
                tally["closed"] = v.close_code
                break
            t = m.get("t")
            tally[t] = tally.get(t, 0) + 1
            if t == "chat" and str(m.get("text", "")).startswith("spam-"):
                tally["spam"] = tally.get("spam", 0) + 1
    except (EOFError, OSError):
        tally["closed"] = "eof"
    tally["bytes"] = v.bytes_in - b0


def measure_chat(addr, secs=20.0, guests=30):
    att, vis = "127.0.3.2", "127.0.3.3"
    socks = []
    for i in range(guests):
        cookie, _ = guest(addr, att)
        w = Ws.open(addr, f"/ws/rooms/{ROOM}", cookie, att)
        w.until("room", time.time() + 10)
        socks.append(w)
    v = visitor(addr, vis)
    tally = {}
    start = time.time()
    end = start + secs
    until = [end + 1.0]  # what was sent in time may arrive a little later
    tw = threading.Thread(target=watch, args=(v, until, tally), daemon=True)
    tw.start()
    sent = {"ok": 0, "refused": 0, "other": 0, "closed": 0}
    lock = threading.Lock()

    def spam(i, w):
        k = 0
        ok = refused = other = 0
        try:
            while time.time() < end:
                k += 1
                w.send({"t": "chat", "text": f"spam-{i}-{k}", "ack": k})
                fate = None
                while fate is None and time.time() < end + 1:
                    m = w.message(end + 1)
                    if m == "closed":
                        with lock:
                            sent["closed"] += 1
                        return
                    if m.get("t") == "chat" and m.get("text") == f"spam-{i}-{k}":
                        fate = "ok"
                    elif m.get("t") == "error" and m.get("ack") == k:
                        fate = m.get("code")
                if fate == "ok":
                    ok += 1
                elif fate == "rate_limited":
                    refused += 1
                    time.sleep(0.15)  # stays under the per-socket flood limit
                else:
                    other += 1
                    time.sleep(0.15)
        except (TimeoutError, EOFError, OSError):
            pass
        finally:
            with lock:
                sent["ok"] += ok
                sent["refused"] += refused
                sent["other"] += other

    ts = [threading.Thread(target=spam, args=(i, w), daemon=True) for i, w in enumerate(socks)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(secs + 15)
    tw.join(5)
    for w in socks:
        w.close()
    v.close()
    print(
        f"chat: {guests} guests of one address for {secs:.0f} s: the visitor received "
        f"{tally.get('spam', 0)} of their messages; senders saw accepted {sent['ok']}, "
        f"rate_limited {sent['refused']}, other {sent['other']}, sockets closed {sent['closed']}"
    )
    # What a newcomer sees as the room's chat history.
    v = Ws.open(addr, f"/ws/rooms/{ROOM}", None, vis)
    room = v.until("room", time.time() + 10)
    v.close()
    hist = room.get("chat", []) if room else []
    spam_n = sum(1 for c in hist if str(c.get("text", "")).startswith("spam-"))
    print(f"chat: a newcomer's room history: {spam_n} of {len(hist)} messages are the attacker's")


# ------------------------------------------------------------------ 4: churn


def measure_churn(addr, secs=10.0, want_tables=40):
    att, churner, vis = "127.0.4.2", "127.0.4.3", "127.0.4.9"
    # (a) seats toggled at as many tables as one address may open.
    tables = []
    refusals = {}
    guests_made = 0
    while len(tables) < want_tables and guests_made < 20:
        cookie, gid = guest(addr, att)
        guests_made += 1
        made_here = 0
        while len(tables) < want_tables:
            status, body, _ = http(
                addr,
                "POST",
                f"/api/rooms/{ROOM}/tables",
                {"minutes": 5, "increment": 0, "seat": "white"},
                cookie,
                att,
            )
            if status != 201:
                k = f"{status} {error_code(body)}"
                refusals[k] = refusals.get(k, 0) + 1
                break
            try:
                p = Player(addr, body["id"], cookie, gid, att)
            except (ConnectionError, AssertionError) as e:
                k = f"socket {e}"
                refusals[k] = refusals.get(k, 0) + 1
                break
            tables.append(p)
            made_here += 1
        if made_here == 0:
            break  # the address's limit, not the guest's
    print(
        f"churn: one address opened {len(tables)} tables with {guests_made} guests "
        f"(refusals on the way: {refusals or 'none'})"
    )
    v = visitor(addr, vis)
    time.sleep(1.0)
    tally0 = {}
    watch(v, [time.time() + 1.0], tally0)  # the tables' own announcements go by
    tally = {}
    start = time.time()
    end = start + secs
    until = [end]
    tw = threading.Thread(target=watch, args=(v, until, tally), daemon=True)
    tw.start()
    res = {"sent": 0, "stood": 0, "seated": 0, "limited": 0, "other_err": {}, "closed": 0}
    lock = threading.Lock()

    def toggle(p):
        n = stood = seated = limited = 0
        other = {}
        nxt = time.time()
        closed = False
        try:
            while time.time() < end:
                if time.time() >= nxt:
                    msg = {"t": "stand"} if n % 2 == 0 else {"t": "sit", "seat": "white"}
                    p.ws.send(msg)
                    n += 1
                    nxt += 0.105  # the per-socket limit: 10 messages a second
                try:
                    m = p.ws.message(min(nxt, end))
                except TimeoutError:
                    continue
                if m == "closed":
                    closed = True
                    break
                t = m.get("t")
                if t == "stood":
                    stood += 1
                elif t == "seated":
                    seated += 1
                elif t == "error":
                    if m.get("code") == "rate_limited":
                        limited += 1
                    else:
                        other[m.get("code")] = other.get(m.get("code"), 0) + 1
        except (EOFError, OSError):
            closed = True
        with lock:
            res["sent"] += n
            res["stood"] += stood
            res["seated"] += seated
            res["limited"] += limited
            for k, v_ in other.items():
                res["other_err"][k] = res["other_err"].get(k, 0) + v_
            res["closed"] += closed

    ts = [threading.Thread(target=toggle, args=(p,), daemon=True) for p in tables]
    for t in ts:
        t.start()
    for t in ts:
        t.join(secs + 10)
    tw.join(5)
    print(
        f"churn (a): {len(tables)} tables for {secs:.0f} s: sent {res['sent']} stand/sit, "
        f"the tables announced {res['stood']} stood + {res['seated']} seated (each seen by its own "
        f"socket), rate_limited {res['limited']}, other errors {res['other_err'] or 'none'}, sockets closed {res['closed']}"
    )
    print(
        f"churn (a): the visitor received {tally.get('table_updated', 0) / secs:.0f} table_updated/s, "
        f"{tally.get('bytes', 0) / secs / 1000:.1f} KB/s; all: "
        f"{ {k: v_ for k, v_ in tally.items() if k != 'bytes'} }"
    )
    for p in tables:
        p.ws.close()
    time.sleep(1.5)

    # (b) 10 guests open and close table sockets as fast as they can.
    cookies = [guest(addr, churner) for _ in range(10)]
    status, body, _ = http(
        addr, "POST", f"/api/rooms/{ROOM}/tables", {"minutes": 5, "increment": 0}, cookies[0][0], churner
    )
    assert status == 201, (status, body)
    table = body["id"]
    holder = Player(addr, table, cookies[0][0], cookies[0][1], churner)  # keeps it alive
    watch(v, [time.time() + 1.0], {})
    tally = {}
    start = time.time()
    end = start + secs
    until = [end]
    tw = threading.Thread(target=watch, args=(v, until, tally), daemon=True)
    tw.start()
    res = {"ok": 0, "refused": 0, "why": {}}

    def churn(cookie):
        ok = refused = 0
        why = {}
        while time.time() < end:
            try:
                s, rest = ws_open(addr, f"/ws/tables/{table}", cookie, churner, timeout=5)
            except OSError as e:
                refused += 1
                why[type(e).__name__] = why.get(type(e).__name__, 0) + 1
                continue
            if s is None:
                refused += 1
                k = rest.decode(errors="replace")
                why[k] = why.get(k, 0) + 1
                continue
            w = Ws(s, rest)
            if w.until("state", min(end + 2, time.time() + 5)) is not None:
                ok += 1
            else:
                refused += 1
                why["no state"] = why.get("no state", 0) + 1
            w.close()
        with lock:
            res["ok"] += ok
            res["refused"] += refused
            for k, n in why.items():
                res["why"][k] = res["why"].get(k, 0) + n

    ts = [threading.Thread(target=churn, args=(c,), daemon=True) for c, _ in cookies]
    for t in ts:
        t.start()
    for t in ts:
        t.join(secs + 10)
    tw.join(5)
    people = sum(tally.get(k, 0) for k in ("people_joined", "people_left", "people_updated"))
    print(
        f"churn (b): 10 guests for {secs:.0f} s: socket opens {res['ok']} ({res['ok'] / secs:.0f}/s), "
        f"refused {res['refused']} {res['why'] or ''}"
    )
    print(
        f"churn (b): the visitor received {(tally.get('people_joined', 0) + tally.get('people_left', 0)) / secs:.0f} "
        f"people_joined+people_left/s ({people / secs:.0f}/s with people_updated), "
        f"{tally.get('bytes', 0) / secs / 1000:.1f} KB/s; all: "
        f"{ {k: v_ for k, v_ in tally.items() if k != 'bytes'} }"
    )
    holder.ws.close()
    v.close()


# ------------------------------------------------------------------ 5: pings


def probe_pings(addr, src, n=300):
    """One socket sends a ping and waits for its pong, n times: how it ends. (A flood's
    close frame is usually lost: the server closes with the flood unread, so its TCP
    reset discards what the client had not read yet; in lockstep nothing is left unread.)"""
    w = Ws.open(addr, f"/ws/rooms/{ROOM}", None, src)
    ping = frame_bytes(9, bytes(100))
    pongs = 0
    how = f"still open after {n} pings"
    deadline = time.time() + 10
    try:
        for _ in range(n):
            w.s.sendall(ping)
            while True:
                op, payload = w.frame(deadline)
                if op == 10:
                    pongs += 1
                    break
                if op == 8:
                    code = struct.unpack(">H", payload[:2])[0] if len(payload) >= 2 else 1005
                    raise EOFError(f"closed with {code} {payload[2:].decode(errors='replace')!r}")
                if op == 9:
                    w.send_frame(10, payload)
    except TimeoutError:
        how = "no answer for 10 s"
    except (EOFError, OSError) as e:
        how = str(e) if str(e).startswith("closed") else f"ended without a close frame ({e!r})"
    w.close()
    return f"probe: one socket, a ping then its pong, {n} times: {pongs} pongs, {how}"


def measure_pings(addr, secs=12.0, sockets=8):
    att = "127.0.5.2"
    ping = frame_bytes(9, bytes(100), b"\x01\x02\x03\x04")
    blob = ping * 64
    results = []
    lock = threading.Lock()
    start = time.time()
    end = start + secs

    def flood(i):
        s, rest = ws_open(addr, f"/ws/rooms/{ROOM}", None, att)
        if s is None:
            with lock:
                results.append({"socket": i, "refused": rest.decode(errors="replace")})
            return
        # A send that cannot finish within 5 s stops the flood (a frame cut there is
        # never completed, so the server sees no garbage); reads wait in select().
        s.settimeout(5.0)
        wlock = threading.Lock()
        r = {"socket": i, "sent": 0, "pongs": 0, "pong_bytes": 0, "bytes": len(rest), "close": None}
        done = threading.Event()

        def sender():
            while time.time() < end and not done.is_set():
                try:
                    with wlock:
                        s.sendall(blob)
                    r["sent"] += 64
                except OSError:
                    break

        ts = threading.Thread(target=sender, daemon=True)
        ts.start()
        buf = bytearray(rest)
        try:
            while time.time() < end + 1 and r["close"] is None:
                if not select.select([s], [], [], 0.5)[0]:
                    continue
                chunk = s.recv(1 << 20)
                if not chunk:
                    if r["close"] is None:
                        r["close"] = "eof (no close frame read)"
                        r["closed_after"] = time.time() - start
                    break
                r["bytes"] += len(chunk)
                buf += chunk
                i0, n = 0, len(buf)
                while i0 + 2 <= n:
                    b1 = buf[i0 + 1] & 0x7F
                    off = 2
                    if b1 == 126:
                        if i0 + 4 > n:
                            break
                        b1, off = struct.unpack_from(">H", buf, i0 + 2)[0], 4
                    elif b1 == 127:
                        if i0 + 10 > n:
                            break
                        b1, off = struct.unpack_from(">Q", buf, i0 + 2)[0], 10
                    if i0 + off + b1 > n:
                        break
                    op = buf[i0] & 0x0F
                    if op == 10:
                        r["pongs"] += 1
                        r["pong_bytes"] += b1
                    elif op == 8:
                        p = bytes(buf[i0 + off : i0 + off + b1])
                        r["close"] = struct.unpack(">H", p[:2])[0] if len(p) >= 2 else 1005
                        r["closed_after"] = time.time() - start
                    elif op == 9:
                        with wlock:
                            s.sendall(frame_bytes(10, bytes(buf[i0 + off : i0 + off + b1])))
                    i0 += off + b1
                del buf[:i0]
        except OSError as e:
            r["close"] = r["close"] or type(e).__name__
            r.setdefault("closed_after", time.time() - start)
        done.set()
        ts.join(2)
        s.close()
        with lock:
            results.append(r)

    probe = probe_pings(addr, att)
    start = time.time()
    end = start + secs
    ts = [threading.Thread(target=flood, args=(i,), daemon=True) for i in range(sockets)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(secs + 10)
    took = time.time() - start
    sent = sum(r.get("sent", 0) for r in results)
    pongs = sum(r.get("pongs", 0) for r in results)
    pb = sum(r.get("pong_bytes", 0) for r in results)
    total = sum(r.get("bytes", 0) for r in results)
    print(
        f"pings: {sockets} sockets, {took:.1f} s: pings written {sent}, pongs received {pongs} "
        f"({pb / 1e6:.1f} MB of pong payload, {total / 1e6:.1f} MB received in all)"
    )
    print(f"pings: {probe}")
    for r in sorted(results, key=lambda r: r["socket"]):
        extra = f" after {r['closed_after']:.2f} s" if "closed_after" in r else ""
        print(
            f"pings: socket {r['socket']}: sent {r.get('sent')} pongs {r.get('pongs')} "
            f"closed {r.get('close') or 'no (open at the end)'}{extra}"
            + (f" refused {r['refused']}" if "refused" in r else "")
        )


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    addr, what = sys.argv[1], sys.argv[2]
    secs = None
    if "--secs" in sys.argv:
        secs = float(sys.argv[sys.argv.index("--secs") + 1])
    print(f"{what}: against {addr} at {time.strftime('%H:%M:%S')}; load {load()}")
    if what == "computer":
        only = "--human-only" in sys.argv
        measure_computer(
            addr,
            secs or 240.0,
            attack="--no-attack" not in sys.argv and not only,
            human_table_on="--no-human" not in sys.argv,
            level_one_on=not only,
            n_analyses=int(sys.argv[sys.argv.index("--analyses") + 1]) if "--analyses" in sys.argv else 0,
        )
    elif what == "tournaments":
        measure_tournaments(addr)
    elif what == "chat":
        measure_chat(addr, secs or 20.0)
    elif what == "churn":
        measure_churn(addr, secs or 10.0)
    elif what == "pings":
        measure_pings(addr, secs or 12.0)
    else:
        print(__doc__)
        sys.exit(2)
    print(f"{what}: done at {time.strftime('%H:%M:%S')}; load {load()}")


if __name__ == "__main__":
    main()

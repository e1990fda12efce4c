#!/usr/bin/env python3
"""Measures the issue-7 attacks against a running `damka` on loopback (bounded loops that
stop by themselves): sockets one address can hold, guest rows after a flood, time to
notice a dead peer, and the largest room whose list still arrives.

Usage: measure-sockets-and-rooms.py HOST:PORT DB_FILE [what...]   (what: sockets guests dead room)

The server should run with --empty-table-grace-secs 3600 (tables made for the room
measurement have nobody connected); for the room measurement on a server with
per-address limits, also --guests-per-minute 0 --max-tables-per-address 0 (the tables of
a big room come from many clients, not from one address).
"""

import base64
import json
import os
import socket
import sqlite3
import struct
import sys
import time


def http(addr, method, path, body=None, cookie=None):
    host, port = addr.split(":")
    s = socket.create_connection((host, int(port)), timeout=10)
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
    head, _, body = out.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    cookie = None
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"set-cookie:"):
            cookie = line.split(b":", 1)[1].strip().split(b";")[0].decode()
    return status, body, cookie


def ws_open(addr, path, timeout=10):
    """A raw WebSocket: the handshake, then the socket; None if refused."""
    host, port = addr.split(":")
    s = socket.create_connection((host, int(port)), timeout=timeout)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(
        (
            f"GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    buf = b""
    while b"\r\n\r\n" not in buf:
        chunk = s.recv(4096)
        if not chunk:
            s.close()
            return None, b""
        buf += chunk
    head, _, rest = buf.partition(b"\r\n\r\n")
    if b" 101 " not in head.split(b"\r\n")[0]:
        s.close()
        return None, head.split(b"\r\n")[0]
    return s, rest


class Reader:
    """Reads server frames (unmasked); answers pings unless told to stay silent."""

    def __init__(self, sock, rest=b"", answer_pings=True):
        self.s = sock
        self.buf = rest
        self.answer = answer_pings

    def _need(self, n, deadline):
        while len(self.buf) < n:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError
            self.s.settimeout(left)
            chunk = self.s.recv(1 << 20)
            if not chunk:
                raise EOFError
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

    def send(self, opcode, payload):
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        else:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        self.s.sendall(head + mask + masked)

    def message(self, deadline):
        """The next JSON text message, or 'closed'."""
        while True:
            op, payload = self.frame(deadline)
            if op == 1:
                return json.loads(payload)
            if op == 8:
                return "closed"
            if op == 9 and self.answer:
                self.send(10, payload)


def measure_sockets(addr, limit=400):
    held = []
    refused = None
    for i in range(limit):
        try:
            s, rest = ws_open(addr, "/ws/rooms/russian")
        except OSError as e:
            refused = f"connect error {e}"
            break
        if s is None:
            refused = rest.decode(errors="replace")
            break
        held.append(s)
    n = len(held)
    for s in held:
        s.close()
    print(f"sockets: one address held {n} of {limit} tried" + (f"; then: {refused}" if refused else ""))


def guest_rows(db):
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT COUNT(*) FROM guests").fetchone()[0]
    finally:
        con.close()


def measure_guests(addr, db, flood=300):
    before = guest_rows(db)
    start = time.time()
    codes = {}
    for _ in range(flood):
        status, _, _ = http(addr, "POST", "/api/guest", {})
        codes[status] = codes.get(status, 0) + 1
    took = time.time() - start
    print(
        f"guests: {flood} creations in {took:.1f} s -> answers {codes}, "
        f"new guest rows {guest_rows(db) - before}"
    )


def measure_dead(addr, bound=60):
    watcher, rest = ws_open(addr, "/ws/rooms/russian")
    w = Reader(watcher, rest)
    deadline = time.time() + 10
    while (m := w.message(deadline)) != "closed" and m.get("t") != "room":
        pass
    silent, _ = ws_open(addr, "/ws/rooms/russian")  # handshake done, then never read
    deadline = time.time() + 10
    while True:
        m = w.message(deadline)
        if m != "closed" and m.get("t") == "presence" and m["players"] >= 2:
            break
    start = time.time()
    deadline = start + bound
    try:
        while True:
            m = w.message(deadline)
            if m != "closed" and m.get("t") == "presence" and m["players"] == 1:
                print(f"dead peer: noticed after {time.time() - start:.1f} s")
                break
    except TimeoutError:
        print(f"dead peer: still present after {bound} s")
    silent.close()
    watcher.close()


def room_arrives(addr, expected, wait=5):
    s, rest = ws_open(addr, "/ws/rooms/russian")
    r = Reader(s, rest)
    ids = set()
    deadline = time.time() + wait
    try:
        while True:
            m = r.message(deadline)
            if m == "closed":
                break
            if m.get("t") in ("room", "room_tables"):
                ids.update(t["id"] for t in m["tables"])
                if not m.get("more"):
                    break
    except (TimeoutError, EOFError):
        pass
    s.close()
    return len(ids)


def measure_room(addr, sizes=(50, 100, 150, 180, 200, 220, 250, 300, 500, 1000, 2000)):
    made = 0
    cookie, on_guest = None, 3
    largest = 0
    for size in sizes:
        while made < size:
            if on_guest == 3:
                status, _, cookie = http(addr, "POST", "/api/guest", {})
                assert status == 200, status
                on_guest = 0
            status, body, _ = http(
                addr, "POST", "/api/rooms/russian/tables", {"minutes": 5, "increment": 3}, cookie
            )
            assert status == 201, (status, body)
            on_guest += 1
            made += 1
        got = room_arrives(addr, size)
        print(f"room: {size} tables -> the list that arrives has {got}")
        if got == size:
            largest = size
        else:
            break
    print(f"room: largest room whose list arrived: {largest} tables (of the sizes tried)")


def main():
    addr, db = sys.argv[1], sys.argv[2]
    what = sys.argv[3:] or ["sockets", "guests", "dead", "room"]
    if "sockets" in what:
        measure_sockets(addr)
    if "guests" in what:
        measure_guests(addr, db)
    if "dead" in what:
        measure_dead(addr)
    if "room" in what:
        measure_room(addr)


if __name__ == "__main__":
    main()

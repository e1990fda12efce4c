// A WebSocket that stays connected: reconnects by itself with exponential backoff and
// jitter, pings to notice dead connections the browser has not noticed, and reports
// online/offline so the page can show it. Messages are JSON both ways.

/**
 * The close code of a socket whose session ended (signed out here or elsewhere, the
 * password changed, the operator, expiry): no reconnect with the same cookie; the page
 * learns who it is now (`SIGNED_OUT_EVENT` on `window`) and mounts again.
 */
export const SIGNED_OUT = 4001;

/** The window event a socket closed with `SIGNED_OUT` dispatches. */
export const SIGNED_OUT_EVENT = 'damka:signed-out';

const PING_EVERY_MS = 15_000;
const PONG_TIMEOUT_MS = 10_000;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 10_000;

/**
 * The delay before reconnect attempt `attempt` (0-based): doubling from 0.5 s up to
 * 10 s, with up to 30 % random jitter so a restarted server is not hit by every client
 * at the same instant.
 * @param {number} attempt
 * @param {number} [random] a number in [0, 1), injectable for tests
 */
export function backoffDelay(attempt, random = Math.random()) {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.max(0, attempt));
  return Math.round(base * (1 + 0.3 * random));
}

/** Absolute ws:// or wss:// URL for a server path, from the page's own origin. */
export function socketUrl(path, loc = globalThis.location) {
  const proto = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${loc.host}${path}`;
}

/**
 * A self-reconnecting JSON socket.
 *
 * `onMessage(msg)` gets every parsed message except `pong`; `onOpen()` runs on every
 * (re)connect, when the server is about to send its fresh state; `onStatus(online)`
 * reports connection changes; `onClosedForGood(code)` runs when the server closed with
 * 1000 (table closed) and no reconnect will happen. A close with `SIGNED_OUT` stops the
 * socket too and tells the page (`SIGNED_OUT_EVENT`), whichever page made it.
 */
export class LiveSocket {
  constructor(path, { onMessage, onOpen, onStatus, onClosedForGood } = {}) {
    this.url = socketUrl(path);
    this.onMessage = onMessage ?? (() => {});
    this.onOpen = onOpen ?? (() => {});
    this.onStatus = onStatus ?? (() => {});
    this.onClosedForGood = onClosedForGood ?? (() => {});
    this.attempt = 0;
    this.ws = null;
    this.stopped = false;
    this.online = false;
    this.timers = new Set();
    this.awaitingPong = null;
    this.connect();
  }

  connect() {
    if (this.stopped) return;
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.attempt = 0;
      this.setOnline(true);
      this.startPinging();
      this.onOpen();
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg.t === 'pong') {
        this.clearPongWait();
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.closed(ev.code);
    };
    // `error` is always followed by `close`, which handles the retry.
    ws.onerror = () => {};
  }

  /** Sends a message; returns false when offline (the caller keeps what must be resent). */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Drops the connection now and reconnects at once (used after a version gap). */
  reconnect() {
    this.attempt = 0;
    this.drop();
  }

  /**
   * Abandons the current socket without waiting for its close handshake, which on a dead
   * connection can take minutes, and schedules the reconnect.
   */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    try {
      ws.close(4000, 'dropped');
    } catch {
      // Already closing.
    }
    this.closed(4000);
  }

  closed(code) {
    this.stopPinging();
    this.setOnline(false);
    if (this.stopped) return;
    if (code === 1000) {
      this.stopped = true;
      this.onClosedForGood(code);
      return;
    }
    if (code === SIGNED_OUT) {
      this.stopped = true;
      globalThis.dispatchEvent?.(new CustomEvent(SIGNED_OUT_EVENT));
      return;
    }
    this.later(() => this.connect(), backoffDelay(this.attempt++));
  }

  /** Closes for good (leaving the page). */
  close() {
    this.stopped = true;
    for (const id of this.timers) clearTimeout(id);
    this.timers.clear();
    this.stopPinging();
    this.ws?.close(1000, 'leaving');
    this.ws = null;
  }

  setOnline(online) {
    if (this.online === online) return;
    this.online = online;
    this.onStatus(online);
  }

  later(fn, ms) {
    const id = setTimeout(() => {
      this.timers.delete(id);
      fn();
    }, ms);
    this.timers.add(id);
    return id;
  }

  startPinging() {
    this.stopPinging();
    this.pingTimer = setInterval(() => {
      if (!this.send({ t: 'ping', ts: Date.now() })) return;
      if (this.awaitingPong == null) {
        // No pong in time: the connection is dead even if the browser has not noticed.
        this.awaitingPong = setTimeout(() => this.drop(), PONG_TIMEOUT_MS);
      }
    }, PING_EVERY_MS);
  }

  clearPongWait() {
    clearTimeout(this.awaitingPong);
    this.awaitingPong = null;
  }

  stopPinging() {
    clearInterval(this.pingTimer);
    this.pingTimer = null;
    this.clearPongWait();
  }
}

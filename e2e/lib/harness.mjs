// End-to-end harness: starts the real server binary on a free port with a temporary
// SQLite database and the repository's static/ directory, and launches Debian's headless
// Chromium through playwright-core (never a downloaded browser).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const REPO = path.resolve(here, '..', '..');
/** Where screenshots and server logs go (gitignored). */
export const ARTIFACTS = path.join(REPO, 'e2e', 'artifacts');

const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * How long a test waits for something the page or the server should do (an event, a
 * rendered move, a status line). Generous on purpose: on a busy machine (a CI runner
 * shared with other jobs) a page can take seconds to react, and the tests wait for the
 * event itself, so a long budget costs nothing when things are fast. `E2E_WAIT_MS`
 * overrides it.
 */
export const WAIT_MS = Number(process.env.E2E_WAIT_MS) || 30_000;

/**
 * How long a (re)started server may take to answer `GET /readyz` with 200: start-up
 * opens and migrates the database and resumes the unfinished games.
 */
export const READY_MS = Number(process.env.E2E_READY_MS) || 60_000;

/**
 * What waiting for pages to reconnect after a server restart may take on top of
 * `WAIT_MS`: the client's reconnect backoff reaches 10 s (plus jitter) while the server
 * is down.
 */
export const RECONNECT_MS = WAIT_MS + 15_000;

/**
 * Starts the server and waits until `/readyz` answers 200.
 *
 * The returned handle can also freeze (`pause`), kill and `restart` the process on the
 * same port and database, to test reconnects and a server restart.
 * @param {string} name used for the log file name
 * @param {string[]} [extraArgs] more server flags
 * @param {{databaseUrl?: string}} [opts] a database of the caller's (default: a fresh
 *   SQLite file)
 */
export async function startServer(name, extraArgs = [], { databaseUrl } = {}) {
  const bin = path.resolve(REPO, process.env.DAMKA_BIN ?? 'target/debug/damka');
  if (!fs.existsSync(bin)) throw new Error(`server binary not found: ${bin} (build it: cargo build --bins)`);
  const port = await freePort();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'damka-e2e-'));
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const log = path.join(ARTIFACTS, `server-${name}.log`);
  const out = fs.openSync(log, 'w');
  const url = `http://127.0.0.1:${port}`;
  let child = null;
  let exited = null;
  // Set while the test stops or kills the server on purpose.
  let stopping = false;

  async function launch() {
    exited = null;
    stopping = false;
    child = spawn(bin, [
      '--bind', `127.0.0.1:${port}`,
      '--database-url', databaseUrl ?? `sqlite://${tmp}/damka.db`,
      // E2E_STATIC_DIR: another client (e.g. an older commit's, to see a new test fail).
      '--static-dir', process.env.E2E_STATIC_DIR ?? path.join(REPO, 'static'),
      ...extraArgs,
    ], {
      stdio: ['ignore', out, out],
      // No endgame tables (made on first use, they would take a core for minutes), no
      // puzzles from analysed games (a debug build's deep verification after each job;
      // the server's own test covers them).
      env: {
        ...process.env,
        RUST_LOG: process.env.RUST_LOG ?? 'info',
        DAMKA_BITBASE_PIECES: process.env.DAMKA_BITBASE_PIECES ?? '0',
        DAMKA_GAME_PUZZLE_DEPTH: process.env.DAMKA_GAME_PUZZLE_DEPTH ?? '0',
      },
    });
    const me = child;
    me.on('exit', (code, signal) => {
      if (child !== me) return;
      exited = { code, signal };
      // A server that ends by itself (a crash, a cluster node that lost its lease)
      // fails the test later as a refused connection: say why now.
      if (!stopping) console.error(`server ${name} exited by itself (${JSON.stringify(exited)}); see ${log}`);
    });
    const deadline = Date.now() + READY_MS;
    for (;;) {
      if (exited) throw new Error(`server exited early (${JSON.stringify(exited)}); see ${log}`);
      try {
        const res = await fetch(`${url}/readyz`);
        if (res.ok) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) {
        me.kill('SIGKILL');
        throw new Error(`server not ready after ${READY_MS} ms; see ${log}`);
      }
      await sleep(100);
    }
  }

  async function waitExit(ms) {
    for (let i = 0; i < ms / 50 && !exited; i++) await sleep(50);
    return !!exited;
  }

  await launch();
  return {
    url,
    log,
    /** Freezes the process: sockets stay open but nothing is answered. */
    pause: () => child.kill('SIGSTOP'),
    /** Sends `signal` to the process. */
    signal: (signal) => {
      stopping = true;
      child.kill(signal);
    },
    /** Kills the process at once (no graceful shutdown). */
    async kill() {
      stopping = true;
      child.kill('SIGKILL');
      if (!(await waitExit(WAIT_MS))) throw new Error('the killed server did not exit');
    },
    /** Starts the server again on the same port and database. */
    restart: launch,
    async stop() {
      stopping = true;
      if (child && !exited) {
        child.kill('SIGCONT');
        child.kill('SIGTERM');
        if (!(await waitExit(5_000))) child.kill('SIGKILL');
      }
      fs.closeSync(out);
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** Launches headless Chromium. */
export function launchBrowser() {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

/**
 * A new player: a separate browser context (own cookies, so own guest) and its page.
 * Page errors are collected in `errors` so a test can assert the page stayed healthy.
 * @param {import('playwright-core').Browser} browser
 * @param {{phone?: boolean, locale?: string, autoplay?: boolean}} [opts] `autoplay`: do not
 *   set the flag with which clients before issue 22 kept an empty American room from
 *   opening a game against the computer by itself (the current client never does; the
 *   flag matters when a test runs against an older client, E2E_STATIC_DIR)
 */
export async function newPlayer(browser, { phone = false, locale = 'en-US', autoplay = false } = {}) {
  const context = await browser.newContext(phone
    ? { viewport: { width: 360, height: 740 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale }
    : { viewport: { width: 1280, height: 860 }, locale });
  // Older clients' "once per tab" flag for the American room's game against the computer.
  if (!autoplay) await context.addInitScript(() => sessionStorage.setItem('damka.autoplay', 'done'));
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  return { context, page, errors, phone };
}

/** Saves a screenshot under e2e/artifacts. */
export async function screenshot(page, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * The server and browser one test file shares: started before its first test, stopped
 * after its last. Read `env.server` and `env.browser` inside the tests.
 * @param {string} name used for the server's log file name
 * @param {string[]} [extraArgs] more server flags
 */
export function serverAndBrowser(name, extraArgs = []) {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer(name, extraArgs);
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

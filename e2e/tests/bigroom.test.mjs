// A room with hundreds of open tables: its snapshot comes in pages (`room`, then
// `room_tables` messages), and the room page lists every table. Before the server paged
// it, a snapshot over the socket's 64 KiB write limit (about 200 tables) was dropped and
// the page showed an empty room.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WAIT_MS, newPlayer, serverAndBrowser } from '../lib/harness.mjs';

// The tables come from many players in a real room; here from one address, so the
// per-address limits are lifted, and tables nobody watches are kept alive.
const env = serverAndBrowser('bigroom', [
  '--guests-per-minute', '0', '--max-tables-per-address', '0', '--empty-table-grace-secs', '600',
]);

const TABLES = 600;

async function post(path, body, cookie) {
  const res = await fetch(`${env.server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify(body),
  });
  assert.ok(res.ok, `${path}: ${res.status} ${await res.text()}`);
  return res;
}

test(`a room with ${TABLES} open tables lists all of them`, { timeout: 120_000 + 4 * WAIT_MS }, async () => {
  let cookie = null;
  for (let i = 0; i < TABLES; i++) {
    if (i % 3 === 0) {
      const res = await post('/api/guest', {});
      cookie = res.headers.get('set-cookie').split(';')[0];
    }
    await post('/api/rooms/russian/tables', { minutes: 5, increment: 3 }, cookie);
  }
  const viewer = await newPlayer(env.browser);
  const frames = [];
  viewer.page.on('websocket', (ws) => ws.on('framereceived', (f) => frames.push(String(f.payload))));
  try {
    await viewer.page.goto(`${env.server.url}/#/room/russian`);
    await viewer.page.waitForFunction(
      (n) => document.querySelectorAll('[data-table-id]').length === n, TABLES, { timeout: WAIT_MS },
    );
    const types = frames.map((f) => JSON.parse(f).t);
    assert.equal(types[0], 'room');
    assert.ok(types.includes('room_tables'), 'the snapshot came in pages');
    assert.ok(Math.max(...frames.map((f) => f.length)) < 64 * 1024, 'every frame under 64 KiB');
    assert.deepEqual(viewer.errors, []);
  } finally {
    await viewer.context.close();
  }
});

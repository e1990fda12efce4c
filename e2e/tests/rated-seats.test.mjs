// Where a person would be refused, they are not invited (issue 34, item 9): "play a
// person" never takes a rated table; a guest sees no Sit at a rated table and no Join on a
// rated tournament, but why; an account outside a rated seat's range sees the range
// instead of Sit, in the room's list and at the table.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser, newPlayer, startServer } from '../lib/harness.mjs';
import { arrive, press, waitStatus } from '../lib/actions.mjs';

const env = { server: null, browser: null, db: null };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'damka-rated-seats-'));
before(async () => {
  env.db = path.join(tmp, 'damka.db');
  env.server = await startServer('rated-seats', [], { databaseUrl: `sqlite://${env.db}` });
  env.browser = await launchBrowser();
});
after(async () => {
  await env.browser?.close();
  await env.server?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A JSON request from the page (its session cookie and origin); the answer's body. */
function call(p, method, url, body) {
  return p.page.evaluate(async ([m, u, b]) => {
    const r = await fetch(u, { method: m, headers: { 'Content-Type': 'application/json' }, body: b ? JSON.stringify(b) : undefined });
    return { status: r.status, body: await r.json().catch(() => null) };
  }, [method, url, body]);
}

/** The guest of `p` becomes the account `name`. */
async function signUp(p, name) {
  const r = await call(p, 'POST', '/api/account', { username: name, password: 'correct horse battery' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await p.page.reload();
  await p.page.locator('[data-me][data-account="account"]').waitFor({ state: 'attached' });
  return r.body.id;
}

test('refusals are shown, not offered', { timeout: 120_000 }, async () => {
  const { url } = env.server;
  const ala = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const carol = await newPlayer(env.browser, { phone: true });
  try {
    await arrive(ala, url, 'Ala');
    await arrive(bob, url, 'Bob');
    await arrive(carol, url, 'Carol');
    await signUp(ala, 'Ala');
    const bobId = await signUp(bob, 'Bobby');
    // Bob is 1775 in Russian (as weeks of rated games would make him).
    execFileSync('sqlite3', [env.db, `INSERT INTO ratings (player_id, variant, rating, rd, volatility, games, rated_at) VALUES ('${bobId}', 'russian', 1775, 60, 0.06, 40, ${Date.now()})`]);
    await bob.page.reload();
    // Ala waits at a rated 5+3 table for 1400–1600.
    const t = await call(ala, 'POST', '/api/rooms/russian/tables',
      { minutes: 5, increment: 3, rated: true, seat: 'white', rating_range: { min: 1400, max: 1600 } });
    assert.equal(t.status, 201, JSON.stringify(t.body));
    const table = t.body.id;
    // A rated tournament, open.
    const tn = await call(ala, 'POST', '/api/rooms/russian/tournaments',
      { kind: 'round_robin', minutes: 5, increment: 3, max_players: 4, rated: true });
    assert.equal(tn.status, 201, JSON.stringify(tn.body));

    // Bob, outside the range: the room's list and the table show the range, no Sit.
    await bob.page.goto(`${url}/#/room/russian`);
    const row = bob.page.locator(`[data-table-id="${table}"]`);
    await row.locator('[data-out-of-range]').waitFor();
    assert.equal(await row.locator('[data-action="sit"]').count(), 0);
    await bob.page.goto(`${url}/#/table/${table}`);
    await bob.page.locator('[data-player="black"] [data-out-of-range]').waitFor();
    assert.equal(await bob.page.locator('[data-action="sit"]').count(), 0);
    assert.match(await bob.page.locator('[data-out-of-range]').textContent(), /1400–1600/);

    // Carol, a guest: no Sit, no Join, but why.
    await carol.page.goto(`${url}/#/room/russian`);
    const crow = carol.page.locator(`[data-table-id="${table}"]`);
    await crow.locator('[data-rated-seat]').waitFor();
    assert.equal(await crow.locator('[data-action="sit"]').count(), 0);
    const trow = carol.page.locator(`[data-tournament-id="${tn.body.id}"]`);
    await trow.locator('[data-rated-join]').waitFor();
    assert.equal(await trow.locator('[data-action="join-tournament"]').count(), 0);
    // "Play a person" at 5+3 does not seat her at Ala's rated table: a table of her own.
    await carol.page.locator('[data-play-preset]').selectOption('5+3');
    await press(carol, carol.page.locator('[data-action="play-person"]'));
    await carol.page.waitForURL(/#\/table\//);
    assert.notEqual(decodeURIComponent(carol.page.url().split('#/table/')[1]), table);
    await waitStatus(carol.page, 'Waiting for an opponent');
    for (const p of [ala, bob, carol]) assert.deepEqual(p.errors, []);
  } finally {
    await ala.context.close();
    await bob.context.close();
    await carol.context.close();
  }
});

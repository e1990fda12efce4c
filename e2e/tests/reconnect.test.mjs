// Connection loss: a spectator watches; the server freezes while a move is on its way,
// is killed and restarted on the same database. The pages show that they are offline,
// never show the unacknowledged move as played, reconnect by themselves, resend the
// move with the same ply, and the game goes on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RECONNECT_MS, WAIT_MS, newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { arrive, createTable, expectPiece, moveList, playMove, press, startGame, waitMoves, waitStatus } from '../lib/actions.mjs';

const env = serverAndBrowser('reconnect');

test('a move sent into a dying server is resent after the restart and played once', { timeout: 120_000 + 6 * RECONNECT_MS }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const carol = await newPlayer(env.browser);
  const [A, B, C] = [alice.page, bob.page, carol.page];
  try {
    await arrive(alice, env.server.url, 'Alice');
    await arrive(bob, env.server.url, 'Bob');
    const id = await createTable(alice, env.server.url, 'russian', { minutes: 3, increment: 2, seat: 'white' });
    await B.goto(`${env.server.url}/#/table/${id}`);
    await press(bob, B.locator('[data-action="sit"][data-seat="black"]'));

    // A spectator (no name chosen) comes in through the room's watch button.
    await C.goto(`${env.server.url}/#/room/russian`);
    await press(carol, C.locator(`[data-table-id="${id}"] [data-action="watch"]`));
    await C.locator(`[data-table="${id}"] [data-square]`).first().waitFor();
    await A.locator('[data-spectators="1"]').waitFor();
    assert.equal(await C.locator('[data-action="start"]').count(), 0, 'a spectator has no Start button');

    await press(alice, A.locator('[data-action="start"]'));
    await press(bob, B.locator('[data-action="start"]'));
    await playMove(alice, 'c3-b4');
    await waitMoves(B, 1);
    await playMove(bob, 'b6-a5');
    await waitMoves(A, 2);
    await waitMoves(C, 2);

    // The server stops answering while Alice's move is on its way: it stays pending.
    env.server.pause();
    await playMove(alice, 'e3-d4');
    await waitStatus(A, 'Sending move e3-d4');
    await expectPiece(A, 'e3', 'white-man');
    await expectPiece(A, 'd4', null);
    assert.equal((await moveList(A)).length, 2, 'the pending move is not in the move list as played');

    // The server dies without answering; every page says it is offline.
    await env.server.kill();
    for (const page of [A, B, C]) await page.locator('[data-status].offline').waitFor();
    await screenshot(A, 'reconnect-offline');

    // Back on the same database (restart() returns once /readyz answers 200): the pages
    // reconnect by themselves, each on its own backoff, Alice's move is resent for the
    // same ply and played exactly once.
    await env.server.restart();
    for (const page of [A, B, C]) {
      await expectPiece(page, 'd4', 'white-man', RECONNECT_MS);
      await expectPiece(page, 'e3', null, RECONNECT_MS);
      await waitMoves(page, 3, RECONNECT_MS);
      assert.deepEqual(await moveList(page), ['c3-b4', 'b6-a5', 'e3-d4']);
    }
    await waitStatus(B, 'Your move', RECONNECT_MS);
    await A.locator('[data-status]:not(.offline)').waitFor({ timeout: RECONNECT_MS });

    // The game goes on: Black captures the piece that just arrived.
    await playMove(bob, 'a5xc3xe5');
    for (const page of [A, B, C]) await waitMoves(page, 4);
    assert.deepEqual([alice.errors, bob.errors, carol.errors].flat().filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/.test(e)), []);
  } finally {
    await Promise.all([alice, bob, carol].map((p) => p.context.close()));
  }
});

test('a missed event is noticed from the version gap and repaired by a resync', { timeout: 60_000 + 8 * WAIT_MS }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const [A, B] = [alice.page, bob.page];
  // Alice's table socket goes through a relay that loses Bob's first move, the way a
  // server drops events for a lagging subscriber; it also records what Alice sends.
  const sent = [];
  let dropped = null;
  await A.routeWebSocket(/\/ws\/tables\//, (ws) => {
    const upstream = ws.connectToServer();
    ws.onMessage((m) => {
      sent.push(JSON.parse(m));
      upstream.send(m);
    });
    upstream.onMessage((m) => {
      const msg = JSON.parse(m);
      if (!dropped && msg.t === 'move' && msg.by === 'black') {
        dropped = msg;
        return;
      }
      ws.send(m);
    });
  });
  try {
    await arrive(alice, env.server.url, 'Alice');
    await arrive(bob, env.server.url, 'Bob');
    await startGame(alice, bob, env.server.url, 'russian');
    await playMove(alice, 'c3-d4');
    await waitMoves(B, 1);
    await playMove(bob, 'f6-e5');
    await waitMoves(B, 2);
    // The relay has dropped Black's move once it has seen it (an event, not a time).
    for (const deadline = Date.now() + WAIT_MS; !dropped && Date.now() < deadline;) {
      await A.waitForTimeout(50);
    }
    assert.ok(dropped, 'the relay dropped Black’s move');
    assert.equal((await moveList(A)).length, 1, 'Alice has not seen it');
    assert.equal(sent.filter((m) => m.t === 'resync').length, 0);

    // The next event has a version one too far: Alice's page asks for a fresh state.
    await press(bob, B.locator('[data-action="draw-offer"]'));
    await waitMoves(A, 2);
    await expectPiece(A, 'e5', 'black-man');
    await A.locator('[data-action="draw-accept"]').waitFor();
    assert.equal(sent.filter((m) => m.t === 'resync').length, 1, 'exactly one resync');
    // And the game goes on from the repaired state: the capture d4xf6 is offered.
    await playMove(alice, 'd4xf6');
    await waitMoves(B, 3);
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

test('a move lost on its way is resent on a fresh connection after the ack timeout', { timeout: 60_000 + 8 * WAIT_MS }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const [A, B] = [alice.page, bob.page];
  // The relay swallows Alice's first move and answers nothing: the connection looks
  // alive (pings still pass) but the move never arrives.
  let swallowed = 0;
  let connections = 0;
  await A.routeWebSocket(/\/ws\/tables\//, (ws) => {
    connections += 1;
    const upstream = ws.connectToServer();
    ws.onMessage((m) => {
      if (JSON.parse(m).t === 'move' && swallowed === 0) {
        swallowed += 1;
        return;
      }
      upstream.send(m);
    });
    upstream.onMessage((m) => ws.send(m));
  });
  try {
    await arrive(alice, env.server.url, 'Alice');
    await startGame(alice, bob, env.server.url, 'russian');
    await waitStatus(A, 'Your move');
    const before = connections;
    await playMove(alice, 'g3-h4');
    await waitStatus(A, 'Sending move g3-h4');
    assert.equal(swallowed, 1);
    await expectPiece(A, 'h4', null, 1_000);
    // Within the ack timeout plus a reconnect, the move is played on both boards.
    await expectPiece(B, 'h4', 'white-man', WAIT_MS + 20_000);
    await expectPiece(A, 'h4', 'white-man');
    assert.equal(connections, before + 1, 'one fresh connection');
    await waitMoves(A, 1);
    await waitMoves(B, 1);
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

// The pages around the game: language choice, rules pages of all seven variants in both
// languages, guest renaming errors, the create-table form per variant, and the mirrored
// Italian board drawn from the server's geometry.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { createTable, expectPiece, playMove, press, startGame, waitMoves } from '../lib/actions.mjs';

const env = serverAndBrowser('pages');

test('the language comes from the browser, can be switched, and is remembered', async () => {
  const p = await newPlayer(env.browser, { locale: 'pl-PL' });
  try {
    await p.page.goto(`${env.server.url}/#/`);
    await p.page.locator('h1', { hasText: 'Warcaby online' }).waitFor();
    assert.equal(await p.page.getAttribute('html', 'lang'), 'pl');
    await p.page.locator('[data-lang-select]').selectOption('en');
    await p.page.locator('h1', { hasText: 'Draughts online' }).waitFor();
    await p.page.reload();
    await p.page.locator('h1', { hasText: 'Draughts online' }).waitFor();
    assert.equal(await p.page.locator('[data-lang-select]').inputValue(), 'en');
    // The room names come from the server in both languages.
    await p.page.locator('[data-room="russian"]', { hasText: 'Russian draughts' }).waitFor();
    await screenshot(p.page, 'lobby');
  } finally {
    await p.context.close();
  }
});

test('rules pages exist for all seven variants in Polish and English', async () => {
  const p = await newPlayer(env.browser, { locale: 'pl-PL' });
  const words = {
    american: ['amerykańskich', 'American'], russian: ['rosyjskich', 'Russian'], brazilian: ['brazylijskich', 'Brazilian'],
    spanish: ['hiszpańskich', 'Spanish'], italian: ['włoskich', 'Italian'], czech: ['czeskich', 'Czech'],
    international: ['międzynarodowych', 'International'],
  };
  try {
    for (const [lang, idx] of [['pl', 0], ['en', 1]]) {
      await p.page.goto(`${env.server.url}/#/`);
      await p.page.locator('[data-lang-select]').selectOption(lang);
      for (const [variant, names] of Object.entries(words)) {
        await p.page.goto(`${env.server.url}/#/rules/${variant}`);
        const h1 = p.page.locator(`[data-rules="${variant}"] h1`);
        await h1.waitFor();
        assert.match(await h1.textContent(), new RegExp(names[idx]));
        assert.ok((await p.page.locator('[data-rules] section').count()) >= 5, `${lang}/${variant} has its sections`);
        assert.equal(await p.page.locator('table.compare .hl').count(), 9, 'the variant’s column is highlighted');
        await p.page.locator('.start-diagram [data-piece]').first().waitFor();
      }
    }
    await screenshot(p.page, 'rules');
  } finally {
    await p.context.close();
  }
});

test('an invalid guest name is refused with the server’s reason', async () => {
  const p = await newPlayer(env.browser);
  try {
    await p.page.goto(`${env.server.url}/#/`);
    await p.page.locator('[data-guest-name]').fill('<b>bad</b>');
    await press(p, p.page.locator('[data-action="rename"]'));
    await p.page.locator('.guest-form .form-msg.error', { hasText: '2–24 characters' }).waitFor();
  } finally {
    await p.context.close();
  }
});

test('capture optional is offered only on 8x8 boards', async () => {
  const p = await newPlayer(env.browser);
  try {
    await p.page.goto(`${env.server.url}/#/room/russian`);
    await p.page.locator('[data-form="create-table"] [name="capture_optional"]').waitFor();
    await p.page.goto(`${env.server.url}/#/room/international`);
    await p.page.locator('[data-form="create-table"]').waitFor();
    assert.equal(await p.page.locator('[name="capture_optional"]').count(), 0);
  } finally {
    await p.context.close();
  }
});

test('the Italian board is drawn mirrored, with named and labelled squares', async () => {
  const p = await newPlayer(env.browser);
  try {
    await p.page.goto(`${env.server.url}/#/`);
    await createTable(p, env.server.url, 'italian', { seat: 'white' });
    const board = await p.page.locator('svg.board').boundingBox();
    const one = await p.page.locator('[data-square="1"]').boundingBox();
    const cell = one.width;
    // Square 1 is the top-left corner, a playing square: the bottom-left one is light.
    assert.ok(Math.abs(one.x - board.x) < 2 && Math.abs(one.y - board.y) < 2, 'square 1 at the top-left');
    const bottomLeft = await p.page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('[data-square]')?.dataset.square ?? null,
      [board.x + cell / 2, board.y + board.height - cell / 2]);
    assert.equal(bottomLeft, null, 'the bottom-left corner is not a playing square');
    assert.equal(await p.page.locator('[data-square]').count(), 32);
    assert.equal(await p.page.locator('[data-piece="white-man"]').count(), 12);
    assert.equal(await p.page.locator('[data-square="21"]').getAttribute('aria-label'), 'Square 21: white man');
    assert.equal(await p.page.locator('[data-square="16"]').getAttribute('aria-label'), 'Square 16');
  } finally {
    await p.context.close();
  }
});

test('the player with Black sees the board from Black’s side', async () => {
  const p = await newPlayer(env.browser);
  try {
    await p.page.goto(`${env.server.url}/#/`);
    await createTable(p, env.server.url, 'american', { seat: 'black' });
    const board = await p.page.locator('svg.board').boundingBox();
    const one = await p.page.locator('[data-square="1"]').boundingBox();
    // Square 1 is on Black's home row: at the bottom for the player with Black.
    assert.ok(Math.abs(one.y + one.height - (board.y + board.height)) < 2, 'square 1 on the bottom row');
    assert.equal(await p.page.locator('[data-square="1"] [data-piece]').getAttribute('data-piece'), 'black-man');
    await p.page.locator('[data-player="black"]', { hasText: '(you)' }).waitFor();
    const bottomBar = await p.page.locator('.player-bar.bottom [data-player]').getAttribute('data-player');
    assert.equal(bottomBar, 'black');
  } finally {
    await p.context.close();
  }
});

test('a game is aborted before both players moved, and the table stays for the next one', async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  try {
    await startGame(alice, bob, env.server.url, 'czech');
    await alice.page.locator('[data-status]', { hasText: 'Your move' }).waitFor();
    await playMove(alice, 'c3-d4');
    // One player has moved: either may still abort.
    await press(bob, bob.page.locator('[data-action="abort"]'));
    // Bob (Black) aborted: he is told so, Alice reads who did.
    await bob.page.locator('[data-banner]:visible', { hasText: 'You aborted the game' }).waitFor();
    await alice.page.locator('[data-banner]:visible', { hasText: 'Black aborted the game' }).waitFor();
    // Closing the banner brings the next-game button to the action bar.
    await press(alice, alice.page.locator('[data-banner] [aria-label="Close"]'));
    await alice.page.locator('.actions [data-action="start"]').waitFor();
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

test('a random opening starts the game after four plies both players see', async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  try {
    await startGame(alice, bob, env.server.url, 'brazilian', { random: true });
    await alice.page.locator('[data-table] .options', { hasText: 'Random opening' }).waitFor();
    for (const p of [alice, bob]) {
      await p.page.locator('[data-moves] .mv.opening').nth(3).waitFor();
      assert.equal(await p.page.locator('[data-moves] [data-ply]').count(), 4);
    }
    const opening = await alice.page.locator('[data-moves] [data-ply]').allTextContents();
    assert.deepEqual(await bob.page.locator('[data-moves] [data-ply]').allTextContents(), opening);
    for (const m of opening) assert.match(m, /^[a-h][1-8]-[a-h][1-8]$/, 'no captures in a random opening');
    await alice.page.locator('[data-status]', { hasText: 'Your move' }).waitFor();
    // The opening plies do not count as the players' moves: abort is still offered.
    await alice.page.locator('[data-action="abort"]').waitFor();
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

test('a stale table link says the table is gone instead of reconnecting forever', async () => {
  const p = await newPlayer(env.browser);
  try {
    await p.page.goto(`${env.server.url}/#/table/nosuchtable`);
    await p.page.locator('[data-missing]', { hasText: 'This table no longer exists' }).waitFor();
  } finally {
    await p.context.close();
  }
});

test('a man reaching the last row becomes a king and captures as a flying king', async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  try {
    await startGame(alice, bob, env.server.url, 'russian');
    // Seven plies to a king: White's last move is a double capture ending on b8.
    const line = ['c3-b4', 'd6-c5', 'b4xd6', 'c7xe5', 'e3-f4', 'b8-c7', 'f4xd6xb8', 'd8-c7'];
    for (const [i, mv] of line.entries()) {
      const player = i % 2 === 0 ? alice : bob;
      await player.page.locator('[data-status]', { hasText: 'Your move' }).waitFor();
      await playMove(player, mv);
      await waitMoves(player.page, i + 1);
      if (mv === 'f4xd6xb8') {
        for (const p of [alice, bob]) {
          await expectPiece(p.page, 'b8', 'white-king');
          for (const sq of ['f4', 'e5', 'c7']) await expectPiece(p.page, sq, null);
        }
      }
    }
    // The king must take c7 and may land on d6, e5 or f4: clicking b8 offers all three.
    await alice.page.locator('[data-status]', { hasText: 'Your move' }).waitFor();
    await press(alice, alice.page.locator('[data-square="b8"]'));
    const targets = await alice.page.locator('[data-square].target').evaluateAll((els) => els.map((e) => e.dataset.square).sort());
    assert.deepEqual(targets, ['d6', 'e5', 'f4']);
    await press(alice, alice.page.locator('[data-square="f4"]'));
    for (const p of [alice, bob]) {
      await expectPiece(p.page, 'f4', 'white-king');
      await expectPiece(p.page, 'c7', null);
      await expectPiece(p.page, 'b8', null);
    }
    await waitMoves(bob.page, 9);
    const moves = await bob.page.locator('[data-moves] [data-ply]').allTextContents();
    assert.equal(moves.at(-1), 'b8xf4');
    assert.equal(moves.at(-3), 'f4xd6xb8');
    assert.deepEqual([alice.errors, bob.errors].flat(), []);
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

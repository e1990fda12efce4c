// What a player does in the page, written the way a person would do it: click (or tap
// on a phone) the hooks the client exposes (`data-square`, `data-action`, ...).

import assert from 'node:assert/strict';
import { WAIT_MS } from './harness.mjs';

/** Clicks or taps, depending on the player's device. */
export async function press(player, locator) {
  if (player.phone) await locator.tap();
  else await locator.click();
}

/** Opens the start page and renames the guest. */
export async function arrive(player, url, name) {
  const { page } = player;
  await page.goto(`${url}/#/`);
  await page.locator('[data-room]').first().waitFor();
  await page.locator('[data-guest-name]').fill(name);
  await press(player, page.locator('[data-action="rename"]'));
  // The header shows the name (hidden on narrow phones, so only attached).
  await page.locator('[data-me]', { hasText: name }).waitFor({ state: 'attached' });
}

/** Opens a room and creates a table there; returns the table id. */
export async function createTable(player, url, room, { minutes = 5, increment = 0, seat = 'white', random = false } = {}) {
  const { page } = player;
  await page.goto(`${url}/#/room/${room}`);
  const form = page.locator('[data-form="create-table"]');
  await form.waitFor();
  await form.locator('[name="minutes"]').fill(String(minutes));
  await form.locator('[name="increment"]').fill(String(increment));
  await form.locator('[name="seat"]').selectOption(seat);
  if (random) await form.locator('[name="random_opening"]').check();
  await press(player, form.locator('[data-action="create-table"]'));
  await page.waitForURL(/#\/table\//);
  const id = decodeURIComponent(page.url().split('#/table/')[1]);
  await page.locator(`[data-table="${id}"] [data-square]`).first().waitFor();
  return id;
}

/**
 * Alice creates a table in `room` and sits as White, Bob opens its link and sits as
 * Black, and both press Start; returns the table id.
 */
export async function startGame(alice, bob, url, room, options = {}) {
  const id = await createTable(alice, url, room, { ...options, seat: 'white' });
  await bob.page.goto(`${url}/#/table/${id}`);
  await press(bob, bob.page.locator('[data-action="sit"][data-seat="black"]'));
  await press(alice, alice.page.locator('[data-action="start"]'));
  await press(bob, bob.page.locator('[data-action="start"]'));
  return id;
}

/**
 * Clicks the squares of a move in turn: start square, then each landing square. First it
 * waits until the page offers the move (its start square is marked movable): a click
 * before the page knows the game has started, or that it is this player's move, would
 * select nothing and the move would never be sent (a race seen on a loaded machine).
 * A premove is clicked square by square with `press`, not through this.
 */
export async function playMove(player, move) {
  const squares = move.split(/[-x:]/);
  await player.page.locator(`[data-square="${squares[0]}"].movable`).waitFor({ timeout: WAIT_MS });
  for (const sq of squares) {
    await press(player, player.page.locator(`[data-square="${sq}"]`));
  }
}

/** Waits until a square holds the given piece (or is empty with `null`). */
export async function expectPiece(page, square, piece, timeout = WAIT_MS) {
  const sel = `[data-square="${square}"] [data-piece]`;
  if (piece == null) {
    await page.waitForFunction((s) => !document.querySelector(s), sel, { timeout });
  } else {
    await page.waitForFunction(([s, p]) => document.querySelector(s)?.dataset.piece === p, [sel, piece], { timeout });
  }
}

/** The moves in the move list, in order. */
export async function moveList(page) {
  return page.locator('[data-moves] [data-ply]').allTextContents();
}

/** Waits until the move list holds `n` moves. */
export async function waitMoves(page, n, timeout = WAIT_MS) {
  await page.waitForFunction((k) => document.querySelectorAll('[data-moves] [data-ply]').length === k, n, { timeout });
}

/** The clock face text of one side. */
export async function clockText(page, side) {
  return page.locator(`[data-clock="${side}"]`).textContent();
}

/** Parses a clock face (`4:59` or `9.5`) into milliseconds. */
export function clockMs(text) {
  const m = /^(\d+):(\d{2})$/.exec(text.trim());
  if (m) return (Number(m[1]) * 60 + Number(m[2])) * 1000;
  const s = /^(\d+)\.(\d)$/.exec(text.trim());
  assert.ok(s, `clock text ${text}`);
  return Number(s[1]) * 1000 + Number(s[2]) * 100;
}

/** Waits until the status line contains `text`. */
export async function waitStatus(page, text, timeout = WAIT_MS) {
  await page.locator('[data-status]', { hasText: text }).waitFor({ timeout });
}

// The table socket's message types in one place (static/js/protocol.js): the same as the
// server's (crates/protocol/src/table.rs), and every action of the table page either
// sends one of them or stays on the page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ACTION_MESSAGES, TABLE, actionMessage } from '../../static/js/protocol.js';

/** The wire names of the server's `ClientMessage` variants. */
function serverTypes() {
  const src = readFileSync(new URL('../../crates/protocol/src/table.rs', import.meta.url), 'utf8');
  const start = src.indexOf('pub enum ClientMessage');
  const body = src.slice(start, src.indexOf('\n}\n', start));
  const names = [...body.matchAll(/^    ([A-Z][A-Za-z]*)\b/gm)].map((m) => m[1]);
  return names.map((n) => n.replace(/[A-Z]/g, (c, i) => (i ? '_' : '') + c.toLowerCase())).sort();
}

test('the client knows exactly the server table messages', () => {
  assert.deepEqual(Object.values(TABLE).sort(), serverTypes());
});

test('a page action sends its message, or nothing', () => {
  assert.deepEqual(actionMessage('draw-offer'), { t: 'draw_offer' });
  assert.deepEqual(actionMessage('sit', { seat: 'white' }), { t: 'sit', seat: 'white' });
  assert.deepEqual(actionMessage('rematch'), { t: 'start' }, 'a rematch is a start');
  for (const local of ['flip', 'sound', 'history-back', 'copy-link', 'premove-cancel', 'toString', 'constructor']) {
    assert.equal(actionMessage(local), null, local);
  }
  for (const [action, type] of Object.entries(ACTION_MESSAGES)) {
    assert.ok(Object.values(TABLE).includes(type), `${action} -> ${type}`);
  }
});

test('every server action of the table page is listed', () => {
  const view = readFileSync(new URL('../../static/js/tableview.js', import.meta.url), 'utf8');
  const page = readFileSync(new URL('../../static/js/table.js', import.meta.url), 'utf8');
  const used = new Set([...`${view}\n${page}`.matchAll(/\b(?:act|button)\('([a-z-]+)'/g)].map((m) => m[1]));
  const pageOnly = new Set(['flip', 'autoflip', 'sound', 'copy-link', 'premove-cancel',
    'history-back', 'history-forward', 'history-live', 'history-to']);
  for (const action of used) {
    if (pageOnly.has(action)) continue;
    assert.ok(Object.hasOwn(ACTION_MESSAGES, action), `${action} sends nothing`);
  }
});

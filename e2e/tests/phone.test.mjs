// The same story on 360x740 touch screens, tapping, on the 10x10 International board
// (numeric notation).
import { test } from 'node:test';
import { serverAndBrowser } from '../lib/harness.mjs';
import { twoPlayerStory } from '../lib/flow.mjs';

const env = serverAndBrowser('phone');

test('phone: International draughts from table creation to resignation', { timeout: 180_000 }, async (t) => {
  await twoPlayerStory({ browser: env.browser, url: env.server.url, variant: 'international', phone: true, tag: 'phone', t });
});

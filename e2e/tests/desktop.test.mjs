// Two players on desktop browsers play Russian draughts (algebraic notation, 8x8).
import { test } from 'node:test';
import { serverAndBrowser } from '../lib/harness.mjs';
import { twoPlayerStory } from '../lib/flow.mjs';

const env = serverAndBrowser('desktop');

test('desktop: Russian draughts from table creation to resignation', { timeout: 180_000 }, async (t) => {
  await twoPlayerStory({ browser: env.browser, url: env.server.url, variant: 'russian', phone: false, tag: 'desktop', t });
});

// Two players on desktop browsers play Russian draughts (algebraic notation, 8x8).
import { after, before, test } from 'node:test';
import { launchBrowser, startServer } from '../lib/harness.mjs';
import { twoPlayerStory } from '../lib/flow.mjs';

let server;
let browser;
before(async () => {
  server = await startServer('desktop');
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('desktop: Russian draughts from table creation to resignation', { timeout: 180_000 }, async (t) => {
  await twoPlayerStory({ browser, url: server.url, variant: 'russian', phone: false, tag: 'desktop', t });
});

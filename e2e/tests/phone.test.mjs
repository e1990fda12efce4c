// The same story on 360x740 touch screens, tapping, on the 10x10 International board
// (numeric notation).
import { after, before, test } from 'node:test';
import { launchBrowser, startServer } from '../lib/harness.mjs';
import { twoPlayerStory } from '../lib/flow.mjs';

let server;
let browser;
before(async () => {
  server = await startServer('phone');
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.stop();
});

test('phone: International draughts from table creation to resignation', { timeout: 180_000 }, async (t) => {
  await twoPlayerStory({ browser, url: server.url, variant: 'international', phone: true, tag: 'phone', t });
});

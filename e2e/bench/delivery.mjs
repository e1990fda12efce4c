// What a visit to the home page costs on the wire, measured in Debian's Chromium: the
// bytes received (headers and bodies, as Chromium counts them: `encodedDataLength`) and
// the requests that went to the network, for a first visit (empty cache) and a repeat
// visit (the same browser profile, a new tab, as a player coming back the next day).
// WebSocket frames are not counted (they are the game, not the delivery).
//
//   node e2e/bench/delivery.mjs                 # the server at target/debug/damka
//   DAMKA_BIN=… E2E_STATIC_DIR=… node e2e/bench/delivery.mjs
//
// Prints one JSON line per visit.

import { launchBrowser, startServer } from '../lib/harness.mjs';

async function visit(context, url, label) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const requests = new Map();
  let bytes = 0;
  cdp.on('Network.requestWillBeSent', (e) => requests.set(e.requestId, { url: e.request.url, cached: false }));
  cdp.on('Network.requestServedFromCache', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.cached = true;
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) {
      r.status = e.response.status;
      r.encoding = e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? null;
      if (e.response.fromDiskCache || e.response.fromPrefetchCache) r.cached = true;
    }
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.bytes = e.encodedDataLength;
    bytes += e.encodedDataLength;
  });
  await page.goto(`${url}/#/`);
  await page.locator('[data-room]').first().waitFor();
  await page.locator('[data-play-now]').waitFor();
  // Let late requests (the favicon) finish.
  await page.waitForLoadState('networkidle');
  const all = [...requests.values()].filter((r) => !r.url.startsWith('ws'));
  const network = all.filter((r) => !r.cached);
  const out = {
    visit: label,
    requests: all.length,
    to_network: network.length,
    network_urls: network.map((r) => `${r.url.replace(url, '')} ${r.bytes ?? '?'} B`),
    compressed: network.filter((r) => r.encoding).length,
    bytes,
  };
  await page.close();
  return out;
}

const server = await startServer('delivery');
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  console.log(JSON.stringify(await visit(context, server.url, 'first')));
  console.log(JSON.stringify(await visit(context, server.url, 'repeat')));
  await context.close();
} finally {
  await browser.close();
  await server.stop();
}

// Exports: each format carries the session's content; the HTML opens in headless Chromium with no
// script run and no request made; a planted key never appears in any export.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../../fixtures/chromium';
import type { StoredArtifact, StoredSession } from '../../../extension/core/ports';
import { exportFileName, exportSession, parseSessionExport, type ExportFormat } from '../../../extension/core/store';
import { created, exchange, open, tempDir } from './helpers';

const FORMATS: ExportFormat[] = ['markdown', 'html', 'json'];

function session(extraText = ''): { session: StoredSession; artifacts: StoredArtifact[] } {
  return {
    session: {
      id: 's-1',
      title: 'Fix the <flaky> test',
      mode: 'agent',
      model: 'minimax/MiniMax-M2.1',
      createdAt: 1_763_000_000_000,
      updatedAt: 1_763_000_100_000,
      messages: [
        {
          id: 'u1',
          role: 'user',
          mode: 'agent',
          status: 'done',
          createdAt: 1_763_000_000_000,
          parts: [{ type: 'text', text: `Why does **test_login** fail? ${extraText}` }],
        },
        {
          id: 'a1',
          role: 'assistant',
          mode: 'agent',
          status: 'done',
          model: 'minimax/MiniMax-M2.1',
          createdAt: 1_763_000_000_500,
          usage: { inputTokens: 100, outputTokens: 50, cachedTokens: 0, costUsd: 0.0012 },
          parts: [
            { type: 'thinking', text: 'Probably a race on the session cookie.' },
            {
              type: 'tool',
              call: {
                callId: 'c1',
                name: 'grep',
                kind: 'read',
                subject: 'sessionCookie',
                status: 'ok',
                durationMs: 12,
                detail: 'src/auth.ts:42: setCookie(sessionCookie)\n```nested fence```',
              },
            },
            {
              type: 'text',
              text:
                'The cookie is set after the redirect. See [the docs](https://example.com/docs) and `auth.ts`.' +
                '\n\n| a | b |\n|---|---|\n| 1 | 2 |',
            },
          ],
        },
        {
          id: 'u2',
          role: 'user',
          mode: 'agent',
          status: 'done',
          createdAt: 1_763_000_001_000,
          parts: [{ type: 'text', text: 'Try again' }],
        },
        {
          id: 'a2',
          role: 'assistant',
          mode: 'agent',
          status: 'error',
          createdAt: 1_763_000_001_500,
          parts: [],
          error: { code: 'rate_limit', message: 'Too many requests', recoverable: true },
        },
      ],
      modelMessages: [
        { role: 'user', content: 'Why does test_login fail?' },
        {
          role: 'assistant',
          text: 'The cookie is set after the redirect.',
          toolCalls: [{ id: 'c1', name: 'grep', argumentsJson: '{"pattern":"sessionCookie"}' }],
        },
      ],
      todos: [
        { id: 't1', content: 'Move setCookie before redirect', status: 'completed' },
        { id: 't2', content: 'Re-run the suite', status: 'pending' },
      ],
    },
    artifacts: [
      {
        id: 'rep',
        kind: 'report',
        title: 'Cookie timing',
        content: 'The session cookie is written late [1].',
        citations: [{ n: 1, url: 'https://example.com/cookies', title: 'Cookies explained' }],
      },
    ],
  };
}

const CONTENT = [
  'test_login',
  'Probably a race on the session cookie.',
  'grep',
  'sessionCookie',
  'src/auth.ts:42: setCookie(sessionCookie)',
  'The cookie is set after the redirect.',
  'Try again',
  'Too many requests',
  'Move setCookie before redirect',
  'Re-run the suite',
  'Cookie timing',
  'The session cookie is written late [1].',
  'https://example.com/cookies',
];

test('JSON export round-trips exactly through its versioned schema', () => {
  const input = session();
  const json = exportSession(input, 'json', { now: 1_763_000_200_000 });
  const doc = JSON.parse(json) as { format: string; version: number };
  assert.equal(doc.format, 'sextant.session');
  assert.equal(doc.version, 1);
  assert.deepEqual(parseSessionExport(json), input);
  assert.throws(() => parseSessionExport(JSON.stringify({ ...doc, version: 2 })));
});

test('Markdown export carries every message, tool card, todo and artifact', () => {
  const md = exportSession(session(), 'markdown', { now: 1 });
  for (const c of CONTENT) assert.ok(md.includes(c), `markdown contains ${c}`);
  assert.match(md, /^# Fix the <flaky> test$/m);
  assert.match(md, /- \[x\] Move setCookie before redirect/);
  assert.match(md, /\[the docs\]\(https:\/\/example\.com\/docs\)/);
  // The tool output holds ``` itself: the fence around it must be longer.
  assert.match(md, /````\nsrc\/auth\.ts:42/);
  // Usage and cost per answer and for the session.
  assert.match(md, /^_Usage: 100 in · 50 out · \$0\.0012_$/m);
  assert.match(md, /^- Usage: 100 in · 50 out · \$0\.0012$/m);
  const html = exportSession(session(), 'html', { now: 1 });
  assert.match(html, /Usage: 100 in · 50 out · \$0\.0012/);
});

test('HTML export: self-contained, readable, links work; in headless Chromium no script runs and no request is made', {
  timeout: 60_000,
}, async () => {
  let hits = 0;
  const server = createServer((_req, res) => {
    hits++;
    res.end('x');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const hostile = [
    `<script>window.__pwned = 1</script>`,
    `<img src="http://127.0.0.1:${port}/img.png" onerror="window.__pwned = 2">`,
    `![remote](http://127.0.0.1:${port}/md.png)`,
    `[click](javascript:window.__pwned=3)`,
    `<iframe src="http://127.0.0.1:${port}/frame"></iframe>`,
    `<a href="http://127.0.0.1:${port}/x" style="background:url(http://127.0.0.1:${port}/bg)">x</a>`,
    `<svg onload="window.__pwned=4"></svg>`,
  ].join('\n\n');
  const input = session(hostile);
  const html = exportSession(input, 'html', { now: 1 });
  const { dir, cleanup } = tempDir('html');
  const file = join(dir, exportFileName(input.session.title, 'html'));
  writeFileSync(file, html);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    await page.waitForTimeout(300);
    assert.equal(
      await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
      undefined,
      'no script ran',
    );
    assert.equal(await page.locator('script, iframe, img, svg, [onerror], [onload]').count(), 0);
    assert.deepEqual(requests, [pathToFileURL(file).href], 'the document itself is the only request');
    assert.equal(hits, 0, 'the local server saw no request');
    const text = (await page.locator('main').textContent()) ?? ''; // includes folded <details>
    for (const c of CONTENT) assert.ok(text.includes(c), `page shows ${c}`);
    assert.ok(text.includes('<script>window.__pwned = 1</script>'), 'hostile HTML is shown as text');
    assert.equal(await page.locator('a[href="https://example.com/docs"]').count(), 1, 'Markdown links work');
    assert.equal(
      await page.locator('a[href="https://example.com/cookies"]').count(),
      1,
      'citations link to their sources',
    );
    assert.equal(await page.locator('a[href^="javascript:"]').count(), 0);
    assert.equal(await page.getByRole('article', { name: 'You' }).count(), 2);
    assert.equal(await page.locator('table').count(), 1);
    assert.equal(
      await page.locator('main').evaluate((m) => getComputedStyle(m).maxWidth),
      '860px',
      'the inline stylesheet applies',
    );
  } finally {
    await browser.close();
    server.close();
    cleanup();
  }
});

test('a planted key never appears in any export (patterns and exact values), pure or from the store', async () => {
  const exact = 'zq-custom-provider-secret-value-9f8e7d';
  const planted = [
    exact,
    'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789',
    'sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345',
    'AKIAIOSFODNN7EXAMPLE',
    'AIzaSyA-1234567890abcdefghijklmnopqrstu',
    'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    'tvly-abcdefghijklmnopqrstuvwx',
  ];
  const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7Zq\nabcdEFGH==\n-----END RSA PRIVATE KEY-----';
  const bearer = 'Authorization: Bearer abc.def.ghijklmnopqrstuvwxyz';
  const text = `${planted.join(' and ')}\n${pem}\n${bearer}`;
  const input = session(text);
  input.session.title = `Title with ${exact}`;
  input.session.messages[1].parts.push({
    type: 'tool',
    call: {
      callId: 'c2',
      name: 'bash',
      kind: 'execute',
      subject: `curl -H "x-api-key: ${exact}"`,
      status: 'ok',
      detail: text,
    },
  });
  input.session.modelMessages.push({
    role: 'tool',
    toolCallId: 'c2',
    toolName: 'bash',
    isError: false,
    content: [{ type: 'text', text }],
  });
  input.artifacts[0].content += `\n\n${text}`;
  for (const format of FORMATS) {
    const out = exportSession(input, format, { secrets: [exact] });
    for (const p of planted) assert.ok(!out.includes(p), `${format}: ${p.slice(0, 8)}… is redacted`);
    assert.ok(!out.includes('MIIEowIBAAKCAQEA7Zq'), `${format}: private key block is redacted`);
    assert.ok(!out.includes('ghijklmnopqrstuvwxyz'), `${format}: bearer token is redacted`);
    assert.ok(out.includes('[REDACTED]'));
    assert.ok(out.includes('test_login'), `${format}: the rest is kept`);
  }
  const { dir, cleanup } = tempDir('export-store');
  try {
    const store = await open(dir);
    store.append(created('s', 1, 'Keys'));
    for (const r of exchange('s', 'r', 2, `use ${planted[1]}`, 'ok')) store.append(r);
    store.append({
      kind: 'artifact',
      sessionId: 's',
      at: 9,
      artifact: {
        id: 'a',
        kind: 'report',
        title: 'R',
        content: 'See [1]',
        citations: [{ n: 1, url: 'https://example.com' }],
      },
    });
    for (const format of FORMATS) {
      const out = store.exportSession('s', format, { secrets: [exact] });
      assert.ok(out && !out.includes(planted[1]));
      assert.ok(out.includes('https://example.com'), `${format}: artifacts are exported`);
    }
    assert.equal(store.exportSession('missing', 'json'), undefined);
    await store.close();
  } finally {
    cleanup();
  }
});

test('export file names are safe on every file system', () => {
  assert.equal(exportFileName('Fix: a/b <c>?', 'markdown'), 'Fix a b c.md');
  assert.equal(exportFileName('...', 'json'), 'session.json');
});

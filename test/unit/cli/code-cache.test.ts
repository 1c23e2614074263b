// The command's compiled code kept between runs (extension/cli/code-cache.ts) and its start-up trace
// (startup-trace.ts), through the built dist/cli.js as a user runs it: the first run writes the cache
// owner-only under SEXTANT_HOME (the provider's bundle too), the next one uses it and answers the same,
// a damaged cache is rejected and rewritten (never trusted, never fatal), and SEXTANT_CODE_CACHE=off
// neither reads nor writes one.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import * as path from 'node:path';
import { startFakeLlm, type FakeLlm } from '../../fixtures/fake-llm';
import { makeCliHome, runCli, type CliHome } from './cli-harness';

let fake: FakeLlm;
before(async () => {
  fake = await startFakeLlm({ defaultReply: { text: 'Cached or not.' } });
});
after(async () => {
  await fake.close();
});

/** Node ≥ 22.1 keeps the cache itself; Node 20 goes through V8's cached data. */
const builtIn = typeof (Module as unknown as { enableCompileCache?: unknown }).enableCompileCache === 'function';

interface Trace {
  codeCache?: string;
  marks: Record<string, number>;
}

async function tracedRun(h: CliHome, env: Record<string, string> = {}): Promise<Trace> {
  const traceFile = path.join(h.home, '..', 'trace.json');
  const r = await runCli(h, ['-p', 'hi'], { env: { SEXTANT_STARTUP_TRACE: traceFile, ...env } });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'Cached or not.\n');
  return JSON.parse(readFileSync(traceFile, 'utf8')) as Trace;
}

const cacheDir = (h: CliHome) => path.join(h.home, 'cache');

test('the first run writes the code cache owner-only, the next uses it; the trace marks each step', async () => {
  const h = makeCliHome(fake);
  const first = await tracedRun(h);
  assert.equal(first.codeCache, builtIn ? 'node' : 'v8-writing');
  assert.equal(statSync(cacheDir(h)).mode & 0o777, 0o700);
  const files = readdirSync(cacheDir(h));
  assert.ok(files.length > 0, 'a cache was written');
  if (!builtIn) {
    // The command's bundle and the provider bundle its request loaded, each once, owner-only.
    assert.deepEqual(files.map((f) => f.split('.js.')[0]).sort(), ['cli-main', 'provider-openai']);
    for (const f of files) assert.equal(statSync(path.join(cacheDir(h), f)).mode & 0o777, 0o600);
  }

  const second = await tracedRun(h);
  assert.equal(second.codeCache, builtIn ? 'node' : 'v8');
  const order = ['entry', 'loaded', 'settings', 'engine', 'send'].map((m) => second.marks[m]);
  for (const [i, t] of order.entries()) assert.equal(typeof t, 'number', `mark ${i} recorded`);
  assert.deepEqual(
    order,
    [...order].sort((a, b) => (a ?? 0) - (b ?? 0)),
  );
});

test('a damaged cache is rejected and rewritten: the run answers as if there were none', {
  skip: builtIn,
}, async () => {
  const h = makeCliHome(fake);
  await tracedRun(h);
  const file = readdirSync(cacheDir(h)).find((f) => f.startsWith('cli-main.js.'));
  const full = path.join(cacheDir(h), file ?? '');
  const good = readFileSync(full);
  writeFileSync(full, Buffer.alloc(good.length, 0x5a));
  const damaged = await tracedRun(h);
  assert.equal(damaged.codeCache, 'v8-writing', 'V8 refused the damaged data');
  assert.ok(!readFileSync(full).equals(Buffer.alloc(good.length, 0x5a)), 'rewritten after the run');
  assert.equal((await tracedRun(h)).codeCache, 'v8');
});

test('SEXTANT_CODE_CACHE=off compiles as before and writes nothing', async () => {
  const h = makeCliHome(fake);
  const t = await tracedRun(h, { SEXTANT_CODE_CACHE: 'off' });
  assert.equal(t.codeCache, 'none');
  assert.deepEqual(
    readdirSync(h.home).filter((f) => f === 'cache'),
    [],
  );
});

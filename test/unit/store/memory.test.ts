// Memory search ranking on a small corpus with known answers: BM25 alone, and BM25 fused with
// vectors from a fake OpenAI-compatible embeddings server (RRF, k = 60).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openAiEmbedder, type SessionStore } from '../../../extension/core/store';
import { bm25FromMatchinfo } from '../../../extension/core/store/bm25';
import { chunkText } from '../../../extension/core/store/memory-index';
import { searchSessions } from '../../../extension/core/store/session-search';
import { createMemorySearchTool } from '../../../extension/core/tools/memory-search';
import type { ToolContext } from '../../../extension/core/tools/types';
import { startFakeEmbeddings } from '../../fixtures/store/fake-embeddings';
import { created, exchange, open, recordingLog, tempDir } from './helpers';

const CORPUS: Array<[id: string, title: string, user: string, answer: string]> = [
  [
    'car',
    'Strange noise',
    'My car makes a grinding noise when braking and the engine light is on.',
    'Check the brake pads first; then take the vehicle to a mechanic.',
  ],
  [
    'db',
    'Slow report',
    'Our postgres query for the monthly report is slow.',
    'Add an index on orders.customer_id and check the plan with EXPLAIN ANALYZE.',
  ],
  [
    'web',
    'Landing page',
    'Where does the index.html of the landing page live?',
    'It is in public/index.html; the build copies it to dist.',
  ],
  [
    'dns',
    'Office network',
    'We get DNS resolution timeouts in the office.',
    'Point the router at a different DNS server and flush the cache.',
  ],
  [
    'pasta',
    'Dinner',
    'Give me a carbonara recipe without cream.',
    'Eggs, pecorino, guanciale and pepper; toss off the heat.',
  ],
  [
    'billing',
    'Customers',
    'How do I send an invoice with Stripe?',
    'Create an invoice item, then finalize and send the invoice through the Stripe API.',
  ],
];

async function corpusStore(dir: string, log = recordingLog()): Promise<SessionStore> {
  const store = await open(dir, { log });
  CORPUS.forEach(([id, title, user, answer], i) => {
    store.append(created(id, 1000 * (i + 1), title));
    for (const r of exchange(id, `r-${id}`, 1000 * (i + 1) + 1, user, answer)) store.append(r);
  });
  return store;
}

test('BM25 from matchinfo: more matches and rarer terms score higher, shorter documents win ties', () => {
  // p=1 phrase, c=1 column, n=10 rows, avg 10 tokens, this row 10 tokens, hits: this row 2, all 3, in 2 rows.
  const mk = (tf: number, df: number, len: number) =>
    new Uint8Array(new Uint32Array([1, 1, 10, 10, len, tf, 3, df]).buffer);
  assert.ok(bm25FromMatchinfo(mk(2, 2, 10)) > bm25FromMatchinfo(mk(1, 2, 10)));
  assert.ok(bm25FromMatchinfo(mk(1, 1, 10)) > bm25FromMatchinfo(mk(1, 8, 10)));
  assert.ok(bm25FromMatchinfo(mk(1, 2, 5)) > bm25FromMatchinfo(mk(1, 2, 20)));
  assert.ok(bm25FromMatchinfo(mk(1, 10, 10)) > 0, 'a term in every row still counts a little');
});

test('chunking covers long text with overlapping windows', () => {
  const words = Array.from({ length: 600 }, (_, i) => `w${i}`).join(' ');
  const chunks = chunkText(words);
  assert.ok(chunks.length > 2);
  assert.ok(chunks.every((c) => c.length <= 900));
  for (let i = 0; i < 600; i++)
    assert.ok(
      chunks.some((c) => c.split(' ').includes(`w${i}`)),
      `w${i} is in some chunk`,
    );
});

test('BM25 alone finds the known answers and ranks the specific session above incidental matches', async () => {
  const { dir, cleanup } = tempDir('mem');
  try {
    const store = await corpusStore(dir);
    assert.equal(
      (await store.searchMemory('slow postgres query index'))[0]?.sessionId,
      'db',
      'db beats the index.html session',
    );
    assert.equal((await store.searchMemory('index.html landing page'))[0]?.sessionId, 'web');
    assert.equal(
      (await store.searchMemory('DNS timeouts'))[0]?.sessionId,
      'dns',
      'porter stemming: timeouts ~ timeout',
    );
    assert.equal((await store.searchMemory('stripe invoice'))[0]?.sessionId, 'billing');
    const hits = await store.searchMemory('carbonara recipe');
    assert.equal(hits[0]?.sessionId, 'pasta');
    assert.equal(hits[0]?.title, 'Dinner');
    assert.match(hits[0]?.excerpt ?? '', /carbonara/i);
    assert.ok(
      !(await store.searchMemory('automobile repair')).some((h) => h.sessionId === 'car'),
      'no shared words, no BM25 hit',
    );
    assert.deepEqual(await store.searchMemory('stripe invoice', { excludeSessionId: 'billing' }), []);
    store.append({ kind: 'session_deleted', sessionId: 'dns', at: Date.now() });
    assert.ok(
      !(await store.searchMemory('DNS timeouts')).some((h) => h.sessionId === 'dns'),
      'deleted sessions are not searched',
    );
    await store.close();
  } finally {
    cleanup();
  }
});

test('with embeddings, vectors are fused with BM25 by RRF (k = 60): synonyms found, exact matches on top', async () => {
  const server = await startFakeEmbeddings();
  const { dir, cleanup } = tempDir('memvec');
  try {
    const store = await corpusStore(dir);
    store.setEmbedder(openAiEmbedder({ baseUrl: server.baseUrl, model: 'fake-embed', apiKey: 'test-key-not-secret' }));
    const car = await store.searchMemory('automobile repair');
    assert.equal(car[0]?.sessionId, 'car', 'found through the vector ranking alone');
    assert.equal(car[0]?.bm25Rank, undefined);
    assert.equal(car[0]?.vectorRank, 1);
    assert.ok(Math.abs(car[0].score - 1 / 61) < 1e-9);
    const db = await store.searchMemory('slow postgres query');
    assert.equal(db[0]?.sessionId, 'db');
    assert.ok(Math.abs(db[0].score - 2 / 61) < 1e-9, 'first in both rankings: 1/61 + 1/61');
    // Chunk vectors were computed once (in batch) and reused; later searches embed only the query.
    const before = server.requests.length;
    await store.searchMemory('router latency');
    assert.equal(server.requests.length, before + 1);
    assert.equal(server.requests[0].authorization, 'Bearer test-key-not-secret');
    assert.equal(server.requests[0].model, 'fake-embed');
    // Vectors are kept in the snapshot.
    await store.close();
    const again = await open(dir);
    again.setEmbedder(openAiEmbedder({ baseUrl: server.baseUrl, model: 'fake-embed' }));
    const n = server.requests.length;
    assert.equal((await again.searchMemory('vehicle brakes'))[0]?.sessionId, 'car');
    assert.equal(server.requests.length, n + 1, 'only the query was embedded after reopening');
    await again.close();
  } finally {
    cleanup();
    await server.close();
  }
});

test('when the embeddings server fails, search falls back to BM25 and says so in the log', async () => {
  const server = await startFakeEmbeddings();
  server.failWith = 500;
  const { dir, cleanup } = tempDir('memdown');
  try {
    const log = recordingLog();
    const store = await corpusStore(dir, log);
    store.setEmbedder(openAiEmbedder({ baseUrl: server.baseUrl, model: 'fake-embed' }));
    const hits = await store.searchMemory('stripe invoice');
    assert.equal(hits[0]?.sessionId, 'billing');
    assert.ok(
      log.lines.some((l) => /embeddings unavailable \(embeddings endpoint answered HTTP 500\)/.test(l)),
      log.lines.join('\n'),
    );
    await store.close();
  } finally {
    cleanup();
    await server.close();
  }
});

test('the memory_search tool is read-only, leaves out the current session and formats hits for the model', async () => {
  const { dir, cleanup } = tempDir('memtool');
  try {
    const store = await corpusStore(dir);
    const tool = createMemorySearchTool(store);
    assert.equal(tool.kind, 'read');
    assert.equal(tool.name, 'memory_search');
    assert.equal(tool.input.safeParse({ query: 'x' }).success, false);
    const ctx = { signal: new AbortController().signal, session: { sessionId: 'pasta' } } as unknown as ToolContext;
    const res = await tool.execute({ query: 'stripe invoice' }, ctx);
    assert.equal(res.isError, false);
    assert.match(String(res.forModel), /^1\. Customers \(session billing, score/);
    const self = await tool.execute({ query: 'carbonara recipe' }, ctx);
    assert.match(String(self.forModel), /No earlier session matches/);
    await store.close();
  } finally {
    cleanup();
  }
});

test('history search: one row per session with its best excerpt, in ranking order, deleted ones left out', async () => {
  const { dir, cleanup } = tempDir('memsessions');
  try {
    const store = await corpusStore(dir);
    const rows = await searchSessions(store, 'carbonara recipe');
    assert.equal(rows[0]?.id, 'pasta');
    assert.equal(rows[0]?.title, 'Dinner');
    assert.match(rows[0]?.excerpt ?? '', /carbonara/i);
    assert.ok(rows[0].messageCount > 0, 'the row carries the session summary');
    assert.equal(new Set(rows.map((r) => r.id)).size, rows.length, 'no session twice');
    store.append({ kind: 'session_deleted', sessionId: 'pasta', at: Date.now() });
    assert.ok(!(await searchSessions(store, 'carbonara recipe')).some((r) => r.id === 'pasta'));
    await store.close();
  } finally {
    cleanup();
  }
});

test("memory_search stays in its workspace: another project's sessions only if the user widens it", async () => {
  const { dir, cleanup } = tempDir('memscope');
  try {
    let workspace = '/home/u/project-a';
    const store = await open(dir, { workspace: () => workspace });
    store.append(created('a1', 1000, 'Project A'));
    for (const r of exchange('a1', 'r-a1', 1001, 'How do we rotate the stripe invoice keys?', 'Use the dashboard.'))
      store.append(r);
    workspace = '/home/u/project-b';
    store.append(created('b1', 2000, 'Project B'));
    for (const r of exchange('b1', 'r-b1', 2001, 'The stripe invoice secret plan for B', 'Keep it private.'))
      store.append(r);
    workspace = '/home/u/project-a';
    const ctx = { signal: new AbortController().signal, session: { sessionId: 'a-now' } } as unknown as ToolContext;

    const scoped = createMemorySearchTool(store);
    const inA = String((await scoped.execute({ query: 'stripe invoice' }, ctx)).forModel);
    assert.match(inA, /session a1/);
    assert.doesNotMatch(inA, /session b1/, "project B's conversation reached project A's agent");

    let scope: 'workspace' | 'all' = 'all';
    const wide = createMemorySearchTool(store, () => scope);
    const all = String((await wide.execute({ query: 'stripe invoice' }, ctx)).forModel);
    assert.match(all, /session a1/);
    assert.match(all, /session b1/);
    scope = 'workspace';
    assert.doesNotMatch(String((await wide.execute({ query: 'stripe invoice' }, ctx)).forModel), /session b1/);

    // The tool's input has no way to widen it: the model cannot ask for more than the user set.
    assert.deepEqual(Object.keys(scoped.input.shape).sort(), ['limit', 'query']);
    // History (the user's own search) spans every workspace.
    assert.deepEqual((await searchSessions(store, 'stripe invoice')).map((r) => r.id).sort(), ['a1', 'b1']);
    await store.close();

    // The workspace survives a reopen (it is in the journal and the snapshot).
    const again = await open(dir, { workspace: () => '/home/u/project-b' });
    const inB = await again.searchMemory('stripe invoice');
    assert.deepEqual(
      inB.map((h) => h.sessionId),
      ['b1'],
    );
    await again.close();
  } finally {
    cleanup();
  }
});

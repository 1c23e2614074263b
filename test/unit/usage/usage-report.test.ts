// The Usage view's aggregation against a generated history of 10,000 sessions (test/fixtures/usage-history.ts):
// the store's GROUP BY rows rolled up into the report must equal sums made independently from the
// generated entries — by day, model, source (with sub-agents and research phases apart), mode, workspace
// and session — for each range preset, a custom range, and a time zone where days begin two hours earlier.
// How fast it is, is `npm run bench -- usage` (no timing assertion here).
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Database } from '../../../extension/core/store/sqljs';
import { usageRows, usageSummary } from '../../../extension/core/store/usage-query';
import {
  buildReport,
  dayString,
  MAX_SESSION_ROWS,
  resolveRange,
  workspaceName,
} from '../../../extension/core/usage/usage-report';
import { SOURCE_NAMES, type UsageRange, UsageReportSchema } from '../../../extension/protocol';
import { generateUsageHistory, type GeneratedEntry, HISTORY_END } from '../../fixtures/usage-history';
import { sql } from '../store/helpers';

let db: Database;
let entries: GeneratedEntry[];
const NOW = HISTORY_END + 3_600_000;
const DAY = 86_400_000;

before(async () => {
  db = new (await sql()).Database();
  entries = generateUsageHistory(db, 10_000);
});

function report(range: UsageRange, offsetMinutes = 0) {
  const resolved = resolveRange(range, NOW, offsetMinutes);
  return buildReport(usageSummary(db, resolved.query, MAX_SESSION_ROWS), range, resolved);
}

/** Independent sums: cost (known only), tokens in/out, unpriced count, by a key of each entry. */
function sums(list: GeneratedEntry[], key: (e: GeneratedEntry) => string) {
  const m = new Map<string, { cost: number; input: number; output: number; cached: number; unpriced: number }>();
  for (const e of list) {
    const k = key(e);
    const s = m.get(k) ?? { cost: 0, input: 0, output: 0, cached: 0, unpriced: 0 };
    s.cost += e.costUsd ?? 0;
    s.input += e.inputTokens;
    s.output += e.outputTokens;
    s.cached += e.cachedTokens;
    s.unpriced += e.costUsd === undefined ? 1 : 0;
    m.set(k, s);
  }
  return m;
}

function assertGroups(
  groups: ReadonlyArray<{
    key: string;
    costUsd: number;
    inputTokens: number;
    outputTokens: number;
    cachedTokens: number;
    unpriced: number;
  }>,
  expected: ReturnType<typeof sums>,
  what: string,
) {
  assert.equal(groups.length, expected.size, `${what}: number of rows`);
  for (const g of groups) {
    const e = expected.get(g.key);
    assert.ok(e, `${what}: unexpected row ${g.key}`);
    assert.ok(Math.abs(g.costUsd - e.cost) < 1e-6, `${what} ${g.key}: cost ${g.costUsd} ≠ ${e.cost}`);
    assert.equal(g.inputTokens, e.input, `${what} ${g.key}: input`);
    assert.equal(g.outputTokens, e.output, `${what} ${g.key}: output`);
    assert.equal(g.cachedTokens, e.cached, `${what} ${g.key}: cached`);
    assert.equal(g.unpriced, e.unpriced, `${what} ${g.key}: unpriced`);
  }
}

const localDay = (at: number, offsetMinutes = 0) => dayString(Math.floor((at + offsetMinutes * 60_000) / DAY));
const sourceKey = (e: GeneratedEntry) => (e.label ? `${e.source}:${e.label}` : e.source);

describe('usage report over 10,000 generated sessions', () => {
  it('all time: sums by day, model, source, mode, workspace equal the generated entries', () => {
    const r = report({ preset: 'all' });
    assert.ok(UsageReportSchema.safeParse(r).success, 'the report is valid protocol');
    assertGroups(
      r.groups.day,
      sums(entries, (e) => localDay(e.at)),
      'by day',
    );
    assertGroups(
      r.groups.model,
      sums(entries, (e) => e.model),
      'by model',
    );
    assertGroups(r.groups.source, sums(entries, sourceKey), 'by source');
    assertGroups(
      r.groups.mode,
      sums(entries, (e) => e.mode),
      'by mode',
    );
    assertGroups(
      r.groups.workspace,
      sums(entries, (e) => e.workspace),
      'by workspace',
    );
    const total = sums(entries, () => 'all').get('all')!;
    assert.ok(Math.abs(r.total.costUsd - total.cost) < 1e-6);
    assert.equal(r.total.inputTokens, total.input);
    assert.equal(r.total.unpriced, total.unpriced);
    // Every source is there: the chat, each sub-agent, the reviewer, each research phase, compaction.
    const keys = r.groups.source.map((g) => g.key).sort();
    for (const k of ['chat', 'subagent:explorer', 'subagent:tester', 'reviewer', 'research:searching', 'compaction'])
      assert.ok(keys.includes(k), `source ${k} missing from ${keys.join(', ')}`);
    assert.equal(
      r.groups.source.find((g) => g.key === 'subagent:explorer')?.label,
      `${SOURCE_NAMES.subagent}: explorer`,
    );
    // Sessions: the 100 costliest listed, the rest counted; sorted by cost.
    assert.equal(r.groups.session.length, 100);
    assert.equal(r.moreSessions, 10_000 - 100);
    const costs = r.groups.session.map((g) => g.costUsd);
    assert.deepEqual(
      costs,
      [...costs].sort((a, b) => b - a),
    );
    const bySession = sums(entries, (e) => e.sessionId);
    for (const g of r.groups.session) assert.ok(Math.abs(g.costUsd - bySession.get(g.key)!.cost) < 1e-9);
    // Over 92 days (the history spans 120) the chart draws months; the bars add up to the total.
    assert.equal(r.bucket, 'month');
    const barSum = r.bars.reduce((s, b) => s + b.total.inputTokens, 0);
    assert.equal(barSum, total.input);
  });

  it('last 7 days and today take only their days (the chart: a bar per day, stacked parts add up)', () => {
    const today = Math.floor(NOW / DAY);
    for (const [preset, days] of [
      ['7d', 7],
      ['today', 1],
      ['30d', 30],
    ] as const) {
      const r = report({ preset });
      const inRange = entries.filter((e) => Math.floor(e.at / DAY) > today - days);
      assert.equal(r.from, dayString(today - days + 1));
      assert.equal(r.to, dayString(today));
      assertGroups(
        r.groups.model,
        sums(inRange, (e) => e.model),
        `${preset} by model`,
      );
      assertGroups(r.groups.source, sums(inRange, sourceKey), `${preset} by source`);
      assert.equal(r.bucket, 'day');
      assert.equal(r.bars.length, days, 'a bar for every day, empty ones too');
      for (const b of r.bars) {
        const stacked = b.bySource.reduce((s, c) => s + c.costUsd, 0);
        assert.ok(Math.abs(stacked - b.total.costUsd) < 1e-9, `${b.bucket}: stack by source = bar`);
        const byModel = b.byModel.reduce((s, c) => s + c.tokens, 0);
        assert.equal(byModel, b.total.inputTokens + b.total.outputTokens, `${b.bucket}: stack by model = bar`);
      }
    }
  });

  it('a custom range includes its first and last day whole; a range backwards is refused', () => {
    const range: UsageRange = { preset: 'custom', from: '2026-10-01', to: '2026-10-03' };
    const r = report(range);
    const from = Date.UTC(2026, 9, 1);
    const inRange = entries.filter((e) => e.at >= from && e.at < from + 3 * DAY);
    assert.ok(inRange.length > 0);
    assertGroups(
      r.groups.day,
      sums(inRange, (e) => localDay(e.at)),
      'custom by day',
    );
    assert.deepEqual(
      r.bars.map((b) => b.bucket),
      ['2026-10-01', '2026-10-02', '2026-10-03'],
    );
    assert.throws(() => report({ preset: 'custom', from: '2026-10-03', to: '2026-10-01' }), /starts .* after it ends/);
    assert.throws(() => report({ preset: 'custom', from: '2026-10-03' }), /needs both/);
  });

  it('days are local: two hours east of UTC, an entry at 23:00 UTC belongs to the next day', () => {
    const r = report({ preset: 'all' }, 120);
    assertGroups(
      r.groups.day,
      sums(entries, (e) => localDay(e.at, 120)),
      'by local day',
    );
  });

  it("the CSV's lines (day × session × key) add up to the same sums", () => {
    const rows = usageRows(db, resolveRange({ preset: 'all' }, NOW, 0).query);
    const bySession = sums(entries, (e) => e.sessionId);
    const got = new Map<string, number>();
    for (const r of rows) got.set(r.sessionId, (got.get(r.sessionId) ?? 0) + r.inputTokens);
    assert.equal(got.size, 10_000);
    for (const [id, s] of bySession) assert.equal(got.get(id), s.input, id);
    assert.equal(rows.find((r) => r.sessionId === 's7')?.title, 'Session 7: "fix, the build"');
  });

  it('names workspaces by their folders', () => {
    assert.equal(workspaceName('/home/me/sextant'), 'sextant');
    assert.equal(workspaceName('/home/me/api\n/home/me/web/'), 'api, web');
    assert.equal(workspaceName('C:\\work\\app'), 'app');
    assert.equal(workspaceName(''), 'No folder');
  });
});

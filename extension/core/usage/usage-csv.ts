// The Usage view's CSV: one line per local day, session, model, mode and source — the grain the store
// sums at, so a spreadsheet can pivot it any way. RFC 4180: CRLF line ends, a field with a comma, quote or
// line break quoted with its quotes doubled. A field starting with = + - @ (or a tab / CR) is prefixed
// with ' so a spreadsheet shows a session title as text instead of running it as a formula (CSV injection).
import { SOURCE_NAMES } from '../../protocol';
import type { UsageRow } from '../store/usage-query';
import { dayString } from './usage-report';

const HEADER = [
  'day',
  'session_id',
  'session_title',
  'workspace',
  'model',
  'mode',
  'source',
  'source_detail',
  'input_tokens',
  'cached_tokens',
  'output_tokens',
  'cost_usd',
  'unpriced_entries',
];

export function csvField(value: string | number): string {
  let s = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function usageCsv(rows: readonly UsageRow[]): string {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = [...rows].sort(
    (a, b) =>
      a.day - b.day ||
      cmp(a.sessionId, b.sessionId) ||
      cmp(a.key.model, b.key.model) ||
      cmp(a.key.source, b.key.source) ||
      cmp(a.key.label, b.key.label),
  );
  const lines = [HEADER.join(',')];
  for (const r of sorted)
    lines.push(
      [
        dayString(r.day),
        r.sessionId,
        r.title,
        r.key.workspace.split('\n').filter(Boolean).join('; '),
        r.key.model,
        r.key.mode,
        SOURCE_NAMES[r.key.source] ?? r.key.source,
        r.key.label,
        r.inputTokens,
        r.cachedTokens,
        r.outputTokens,
        // Known cost only; the next column says how many entries had no price.
        Number(r.costUsd.toFixed(6)),
        r.unpriced,
      ]
        .map(csvField)
        .join(','),
    );
  return `${lines.join('\r\n')}\r\n`;
}

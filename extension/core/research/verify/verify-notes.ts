// The report's verification notes: what was checked and how, in the words the report card and the
// exports show. Kept apart from the verifier so its wording can change without touching the checks.
import type { FloorDecision } from './lexical';
import type { VerificationStats } from './verify-report';

export function summaryNote(s: VerificationStats, judged: boolean): string {
  if (s.claims === 0) return 'No sentence of this report cites a source.';
  const how = judged
    ? 'checked against the cited pages (word for word, else by a model)'
    : 'checked against the cited pages (word for word only: no model was available)';
  const parts = [`${s.supported} of ${s.claims} cited claims supported, ${how}`];
  if (s.unsupported) parts.push(`${s.unsupported} marked as not supported`);
  if (s.unchecked) parts.push(`${s.unchecked} not checked${judged ? ' (model check failed)' : ''}`);
  if (s.inventedRemoved) parts.push(`${s.inventedRemoved} citation(s) of unfetched sources removed`);
  if (s.unfetchedUrlsRemoved) parts.push(`${s.unfetchedUrlsRemoved} unfetched URL(s) removed`);
  return `${parts.join('; ')}.`;
}

export function floorNote(f: Record<FloorDecision, number>, judged: boolean): string {
  const pinned = `${f.pinned} pinned word for word to a passage`;
  const rejected = `${f.rejected} rejected as unrelated to the cited page`;
  const saved = f.pinned + f.rejected;
  return judged
    ? `Passage check: ${pinned}, ${f.judge} sent to the model, ${rejected} ` +
        `(${saved} model call${saved === 1 ? '' : 's'} saved).`
    : `Passage check: ${pinned}, ${f.judge} left unchecked (no model to read them), ${rejected}.`;
}

// A research report's sources with the text read from each, kept beside the report's artifact row:
// a follow-up asked after a restart continues from them (nothing already read is fetched again), and a
// citation's quote offsets point into exactly this text. Written by the projection with the artifact,
// read back for the session's last report.
import type { StoredResearch } from '../ports';
import type { Database } from './sqljs';
import { queryAll, queryOne } from './sqljs';

/** Replaces the report's stored sources (the same artifact id again replaces them all). */
export function writeResearch(db: Database, artifactId: string, research: StoredResearch): void {
  db.run('UPDATE artifacts SET question = ? WHERE id = ?', [research.question, artifactId]);
  db.run('DELETE FROM research_sources WHERE artifact_id = ?', [artifactId]);
  for (const s of research.sources)
    db.run(
      `INSERT OR REPLACE INTO research_sources
         (artifact_id, n, url, final_url, title, text, accessed_at, path, line_start, line_end)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        artifactId,
        s.n,
        s.url,
        s.finalUrl ?? null,
        s.title,
        s.text,
        s.accessedAt,
        s.path ?? null,
        s.lines?.start ?? null,
        s.lines?.end ?? null,
      ],
    );
}

/** One report's stored sources, by number (empty when it kept none: a report from before v10). */
export function readResearchSources(db: Database, artifactId: string): StoredResearch['sources'] {
  return queryAll(db, 'SELECT * FROM research_sources WHERE artifact_id = ? ORDER BY n', [artifactId]).map((r) => ({
    n: Number(r.n),
    url: String(r.url),
    ...(r.final_url !== null ? { finalUrl: String(r.final_url) } : {}),
    title: String(r.title),
    text: String(r.text),
    accessedAt: Number(r.accessed_at),
    ...(r.path !== null ? { path: String(r.path) } : {}),
    ...(r.line_start !== null && r.line_end !== null
      ? { lines: { start: Number(r.line_start), end: Number(r.line_end) } }
      : {}),
  }));
}

/** Which stored research: a session's last report (what a follow-up continues from), or one report. */
export type ResearchOf = { sessionId: string } | { reportId: string };

/** A report that kept its sources, with them: the session's last one, or the one named. */
export function storedResearch(db: Database, of: ResearchOf): (StoredResearch & { reportId: string }) | undefined {
  const row =
    'reportId' in of
      ? queryOne(db, 'SELECT id, question FROM artifacts WHERE id = ? AND question IS NOT NULL', [of.reportId])
      : queryOne(
          db,
          `SELECT id, question FROM artifacts
            WHERE session_id = ? AND kind = 'report' AND question IS NOT NULL
            ORDER BY created_at DESC, updated_at DESC LIMIT 1`,
          [of.sessionId],
        );
  if (!row) return undefined;
  const reportId = String(row.id);
  return { reportId, question: String(row.question), sources: readResearchSources(db, reportId) };
}

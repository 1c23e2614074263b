// Reading the workspace as sources: the files the planner named (read from the top) and, for each
// query and sub-question, the best-matching sections of the workspace's files. Each read is a
// `read_file` card; each section becomes a source numbered like a page, cited as its path and lines.
import type { ResearchPlanInput } from '../../../protocol';
import type { FetchedSource } from '../verify';
import type { WorkspaceSection, WorkspaceSources } from '../workspace/workspace-sources';
import type { ResearchRecord } from './research-record';

/** Sections one query adds at most, and workspace sources a run reads at most. */
const SECTIONS_PER_QUERY = 2;
const MAX_WORKSPACE_SOURCES = 16;

export async function gatherWorkspace(
  rec: ResearchRecord,
  ws: WorkspaceSources,
  plan: ResearchPlanInput,
  signal: AbortSignal,
): Promise<void> {
  rec.progress('reading', 'Reading the workspace');
  for (const file of plan.files ?? []) {
    if (signal.aborted || workspaceCount(rec) >= MAX_WORKSPACE_SOURCES) return;
    const callId = rec.card('read_file', file);
    const started = rec.o.now();
    const got = await ws.read(file, signal);
    if (typeof got === 'string') {
      rec.cardDone(callId, 'read_file', file, started, { status: 'error', preview: got, summary: got });
      rec.notes.push(`Workspace: ${got}.`);
      continue;
    }
    const n = addSection(rec, got);
    rec.cardDone(callId, 'read_file', file, started, { status: 'ok', preview: `[${n}] ${got.title}` });
  }
  const asks = [...new Set([...plan.queries.map((q) => q.query), ...plan.subQuestions])];
  for (const query of asks) {
    if (signal.aborted || workspaceCount(rec) >= MAX_WORKSPACE_SOURCES) return;
    const callId = rec.card('read_file', `workspace: ${query}`);
    const started = rec.o.now();
    rec.progress('searching', `Searching the workspace: ${query}`);
    try {
      const found = await ws.find(query, SECTIONS_PER_QUERY, signal);
      const added = found.map((sec) => `[${addSection(rec, sec)}] ${sec.title}`);
      rec.cardDone(callId, 'read_file', `workspace: ${query}`, started, {
        status: 'ok',
        preview: added.length ? added.join(' · ') : 'No matching files',
        detail: added.join('\n') || 'No matching files',
      });
    } catch (e) {
      const message = (e as Error).message;
      rec.cardDone(callId, 'read_file', `workspace: ${query}`, started, {
        status: signal.aborted ? 'aborted' : 'error',
        preview: message,
      });
      if (!signal.aborted) rec.notes.push(`The workspace search "${query}" failed: ${message}`);
    }
  }
}

function workspaceCount(rec: ResearchRecord): number {
  return rec.sources.filter((s) => s.path).length;
}

/** Adds a section as a source (the same lines of the same file keep one number); returns its number. */
function addSection(rec: ResearchRecord, sec: WorkspaceSection): number {
  const same = rec.sources.find(
    (s) => s.path === sec.path && s.lines && s.lines.start <= sec.start && s.lines.end >= sec.end,
  );
  if (same) return same.n;
  const source: FetchedSource = {
    n: rec.nextN(),
    url: `${sec.path}#L${sec.start}-L${sec.end}`,
    title: sec.title,
    text: sec.text,
    accessedAt: rec.o.now(),
    path: sec.path,
    lines: { start: sec.start, end: sec.end },
  };
  rec.sources.push(source);
  return source.n;
}

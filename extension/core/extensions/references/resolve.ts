// Reads each `@` reference of a message before it is sent. Any reference that cannot be attached — a
// missing file, a binary one, a read the permission policy refuses or the user declines, a failed fetch —
// refuses the whole message with a message saying which and why: nothing is sent, the draft goes back.
// File and folder reads are judged exactly as read_file and ls are (judgeCall over the same policy):
// outside the workspace asks, protected and secret locations are refused.
import * as path from 'node:path';
import type { Reference } from '../../../protocol';
import { judgeCall } from '../../agent/permission-gate';
import { secretFileOf } from '../../permissions/paths';
import { listFiles } from '../../tools/util/list-files';
import { displayPath, realPathOf, resolvePath, rootOf } from '../../tools/util/paths';
import { decodeText } from '../../tools/util/text';
import { errorText } from '../../util/error-text';
import { type DiffReadJudge, readableDiff, withheldNote } from '../readable-diff';
import { type Attachment, capAttachments, MAX_REFERENCE_CHARS } from './attach';
import type { ReferenceServices } from './types';

/** Files larger than this are read only up to it (the cap cuts far below anyway). */
const READ_BYTES = 4 * MAX_REFERENCE_CHARS;
const MAX_FOLDER_ENTRIES = 500;

export type ResolvedReferences = { ok: true; attachments: Attachment[] } | { ok: false; message: string };

class Refusal extends Error {}

export async function resolveReferences(
  refs: readonly Reference[],
  services: ReferenceServices,
  signal?: AbortSignal,
): Promise<ResolvedReferences> {
  const items: Array<{ kind: Reference['kind']; label: string; content: string }> = [];
  try {
    for (const ref of refs)
      items.push({ kind: ref.kind, label: ref.label, content: await contentOf(ref, services, signal) });
  } catch (err) {
    const why = err instanceof Refusal ? err.message : errorText(err);
    return { ok: false, message: `Not sent: ${why} Your message is back in the composer.` };
  }
  return { ok: true, attachments: capAttachments(items) };
}

async function contentOf(ref: Reference, s: ReferenceServices, signal?: AbortSignal): Promise<string> {
  switch (ref.kind) {
    case 'file':
    case 'folder':
      return readPath(ref, s, signal);
    case 'selection': {
      const sel = await s.editor.selection();
      if (!sel?.text) throw new Refusal('@selection: nothing is selected in the editor.');
      if (sel.path) await judgeRead(s, sel.path, ref.label, 'file');
      const where = sel.path
        ? `${displayPath(s.workspace, sel.path)}, lines ${sel.startLine}–${sel.endLine}`
        : 'editor';
      return `(${where})\n${sel.text}`;
    }
    case 'problems': {
      let file: string | undefined;
      if (ref.value) {
        file = await existing(s, ref.value, ref.label);
        await judgeRead(s, file, ref.label, 'file');
      }
      const text = await s.editor.problems(file);
      return text || (file ? `No problems in ${displayPath(s.workspace, file)}.` : 'No problems in the workspace.');
    }
    case 'terminal': {
      const out = await s.editor.terminalOutput();
      if (!out)
        throw new Refusal(
          '@terminal: no terminal output was captured. Sextant reads the last command of a terminal through ' +
            "VS Code's shell integration; run the command again in a terminal where it is active.",
        );
      return `(terminal "${out.terminal}"${out.command ? `, command: ${out.command}` : ''})\n${out.output}`;
    }
    case 'git': {
      const roots = s.workspace.roots();
      if (!roots.length) throw new Refusal('@git: no workspace folder is open.');
      // Only the changed files read_file could show: a tracked secret's diff stays out, named.
      const judge: DiffReadJudge = async (abs) => {
        const d = await readDecision(s, abs, 'file');
        return d.decision === 'allow' ? { ok: true } : { ok: false, reason: d.reason };
      };
      const diffs = await Promise.all(roots.map((r) => readableDiff(r, 'HEAD', judge)));
      const text = diffs
        .map((d) => d.diff)
        .filter(Boolean)
        .join('\n');
      const note = withheldNote(diffs.flatMap((d) => d.withheld));
      if (!text) return note || 'The working tree has no changes against HEAD.';
      return note ? `${text}\n${note}` : text;
    }
    case 'url': {
      if (!s.fetchPage) throw new Refusal(`${ref.label}: fetching pages is not available here.`);
      await judgeUrl(s, ref.value, ref.label);
      try {
        const page = await s.fetchPage(ref.value, signal);
        return `${page.title ? `# ${page.title}\n` : ''}(${page.url})\n\n${page.markdown}`;
      } catch (err) {
        throw new Refusal(`${ref.label}: ${errorText(err)}`);
      }
    }
    case 'mcp': {
      const colon = ref.value.indexOf(':');
      if (!s.readMcpResource || colon <= 0) throw new Refusal(`${ref.label}: no MCP server serves this resource.`);
      try {
        return await s.readMcpResource(ref.value.slice(0, colon), ref.value.slice(colon + 1));
      } catch (err) {
        throw new Refusal(`${ref.label}: ${errorText(err)}`);
      }
    }
  }
}

/** The absolute path of a reference that must exist (else refused, naming it). */
async function existing(s: ReferenceServices, given: string, label: string): Promise<string> {
  let abs: string;
  try {
    abs = await resolvePath(s.workspace, given);
  } catch (err) {
    throw new Refusal(`${label}: ${errorText(err)}`);
  }
  if (!(await s.workspace.stat(abs)))
    throw new Refusal(`${label}: there is no file or folder ${displayPath(s.workspace, abs)}.`);
  return abs;
}

async function readPath(ref: Reference, s: ReferenceServices, signal?: AbortSignal): Promise<string> {
  const abs = await existing(s, ref.value, ref.label);
  const st = await s.workspace.stat(abs);
  if (st?.type === 'directory') {
    await judgeRead(s, abs, ref.label, 'folder');
    const { files } = await listFiles({
      ws: s.workspace,
      rgPath: s.ripgrepPath(),
      dir: abs,
      workspaceRoot: rootOf(s.workspace, abs),
      signal,
    });
    const rel = files.map((f) => path.relative(abs, f).split(path.sep).join('/')).sort();
    const more = rel.length > MAX_FOLDER_ENTRIES ? `\n[${rel.length - MAX_FOLDER_ENTRIES} more files not listed]` : '';
    const listed = rel.slice(0, MAX_FOLDER_ENTRIES).join('\n');
    return `Files in ${displayPath(s.workspace, abs)}/ (${rel.length}):\n${listed}${more}`;
  }
  // The real path judged is the one read: a link cannot be swapped in between.
  const real = await judgeRead(s, abs, ref.label, 'file');
  const dirty = await s.workspace.dirtyText(abs);
  if (dirty !== undefined) return dirty;
  let bytes: Uint8Array;
  try {
    bytes = await s.workspace.readFile(real, { maxBytes: READ_BYTES, ...(signal ? { signal } : {}) });
  } catch (err) {
    if ((err as { code?: string }).code !== 'EFBIG') throw new Refusal(`${ref.label}: ${errorText(err)}`);
    // Larger than we send anyway: the first part is enough (the cap cuts it with a note).
    bytes = (await s.workspace.readFile(real)).subarray(0, READ_BYTES);
  }
  const decoded = decodeText(bytes);
  if (decoded.kind === 'binary')
    throw new Refusal(`${ref.label}: ${displayPath(s.workspace, abs)} is a binary file (${decoded.reason}).`);
  return decoded.text;
}

/** read_file's (or ls's) decision for this path, and the real path it was judged as. */
async function readDecision(s: ReferenceServices, abs: string, what: 'file' | 'folder') {
  const call =
    what === 'file'
      ? { tool: 'read_file', kind: 'read' as const, input: { file_path: abs } }
      : { tool: 'ls', kind: 'read' as const, input: { path: abs } };
  const real = await realPathOf(s.workspace, abs);
  const secret = secretFileOf(real) ?? secretFileOf(abs);
  const d = s.permissions
    ? await judgeCall(s.permissions, call, s.workspace)
    : secret
      ? { decision: 'ask' as const, reason: secret.reason }
      : rootOf(s.workspace, real)
        ? { decision: 'allow' as const, reason: 'inside the workspace' }
        : { decision: 'ask' as const, reason: 'outside the workspace' };
  return { ...d, real };
}

/**
 * read_file's (or ls's) judgement of this path: deny refuses, ask asks the user now (a .env file, a file
 * outside the workspace). The real path it judged.
 */
async function judgeRead(s: ReferenceServices, abs: string, label: string, what: 'file' | 'folder'): Promise<string> {
  const { real, ...d } = await readDecision(s, abs, what);
  if (d.decision === 'deny') throw new Refusal(`${label}: reading ${real} is refused (${d.reason}).`);
  if (d.decision === 'ask' && !(await s.confirmRead({ label, path: real, reason: d.reason })))
    throw new Refusal(`${label}: you declined to attach ${real}.`);
  return real;
}

/** web_fetch's deny rules hold for a URL the user attaches (it is their own request, so no ask). */
async function judgeUrl(s: ReferenceServices, url: string, label: string): Promise<void> {
  if (!s.permissions) return;
  const d = await judgeCall(
    s.permissions,
    { tool: 'web_fetch', kind: 'network', input: { url, prompt: '' } },
    s.workspace,
  );
  if (d.decision === 'deny') throw new Refusal(`${label}: fetching it is refused (${d.reason}).`);
}

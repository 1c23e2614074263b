// Markdown export: readable as plain text, renders on GitHub. Tool cards become a bold line with
// the output in a fenced block; thinking becomes a <details> block (GitHub renders it folded).
import {
  attachmentLine,
  planArtifactToMarkdown,
  sessionUsage,
  usageLine,
  type ChatMessage,
  type MessagePart,
  type PlanArtifact,
  type Report,
} from '../../protocol';
import type { ExportInput } from './export';
import { subagentHead, subagentTranscript } from './export-subagent';
import { imageRefLabel, markdownImageNote } from './export-images';

export function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const f = '`'.repeat(longest + 1);
  return `${f}${lang}\n${text.replace(/\n$/, '')}\n${f}`;
}

const iso = (ms: number) => new Date(ms).toISOString();

function part(p: MessagePart): string {
  if (p.type === 'text') return p.text.trim();
  if (p.type === 'thinking') return `<details><summary>Thinking</summary>\n\n${p.text.trim()}\n\n</details>`;
  if (p.type === 'plan') return planMarkdown(p.plan);
  if (p.type === 'report') return reportMarkdown(p.report);
  if (p.type === 'compaction') {
    const head = `Earlier turns compacted (${p.compaction.replaces} messages) — brief`;
    return `<details><summary>${head}</summary>\n\n${p.compaction.brief.trim()}\n\n</details>`;
  }
  if (p.type === 'notice') return `> ${p.notice.text}`;
  if (p.type === 'attachments') {
    const notes = p.attachments.flatMap((a) => (a.image ? [markdownImageNote(a.label)] : []));
    return [`Attached: ${p.attachments.map((a) => `\`${attachmentLine(a)}\``).join(', ')}`, ...notes].join('\n\n');
  }
  const c = p.call;
  const duration = c.durationMs !== undefined ? ` (${c.durationMs} ms)` : '';
  const why = c.summary ? `: ${c.summary}` : '';
  const head = `**Tool: ${c.name}** — \`${c.subject.replace(/`/g, "'")}\` — ${c.status}${duration}${why}`;
  const body = c.detail ?? c.preview ?? c.liveOutput;
  const sub = c.subagent ? `\n\n**${subagentHead(c.subagent)}**\n\n${fence(subagentTranscript(c.subagent))}` : '';
  const shots = (c.images ?? []).map((i) => `\n\n${markdownImageNote(imageRefLabel(i, 'screenshot'))}`).join('');
  return body ? `${head}\n\n${fence(body)}${sub}${shots}` : `${head}${sub}${shots}`;
}

const PLAN_STATUS: Record<PlanArtifact['status'], string> = {
  proposed: 'proposed, awaiting review',
  approved: 'approved',
  rejected: 'rejected',
};

/** A report card: its own headings moved under the message's level, then what verification found. */
function reportMarkdown(report: Report): string {
  const body = report.markdown.replace(/^(#{1,4}) /gm, (_m, h: string) => `${'#'.repeat(Math.min(6, h.length + 2))} `);
  const notes = report.notes.length
    ? `\n\n**Verification notes**\n\n${report.notes.map((n) => `- ${n}`).join('\n')}`
    : '';
  return `**Report: ${report.title}**\n\n${body.trim()}${notes}`;
}

/** A plan card: its headings moved under the message's level, with its status. */
function planMarkdown(plan: PlanArtifact): string {
  const body = planArtifactToMarkdown(plan)
    .replace(/^# (?:Research plan|Plan)\n\n/, '')
    .replace(/^## /gm, '#### ')
    .trim();
  return `### Plan (${PLAN_STATUS[plan.status]})\n\n${body}`;
}

function message(m: ChatMessage): string {
  const who = m.role === 'user' ? 'You' : `Sextant${m.model ? ` (${m.model})` : ''}`;
  const lines = [`## ${who} — ${m.mode} — ${iso(m.createdAt)}`, ''];
  for (const p of m.parts) {
    const t = part(p);
    if (t) lines.push(t, '');
  }
  if (m.status === 'stopped') lines.push('_Stopped before it finished._', '');
  if (m.error) lines.push(`> **Error (${m.error.code}):** ${m.error.message}`, '');
  if (m.usage) lines.push(`_Usage: ${usageLine(m.usage)}_`, '');
  return lines.join('\n');
}

export function renderMarkdown({ session, artifacts }: ExportInput, now: number): string {
  const out = [
    `# ${session.title}`,
    '',
    `- Mode: ${session.mode}`,
    `- Model: ${session.model}`,
    `- Created: ${iso(session.createdAt)}`,
    `- Updated: ${iso(session.updatedAt)}`,
    `- Exported: ${iso(now)} by Sextant`,
  ];
  const total = sessionUsage(session.messages);
  if (total.answers) out.push(`- Usage: ${usageLine(total)}`);
  out.push('');
  for (const m of session.messages) out.push(message(m));
  if (session.todos.length) {
    out.push('## Todos', '');
    for (const t of session.todos) {
      const note = t.status === 'in_progress' ? ' _(in progress)_' : '';
      out.push(`- [${t.status === 'completed' ? 'x' : ' '}] ${t.content}${note}`);
    }
    out.push('');
  }
  for (const a of artifacts) {
    out.push(
      `## ${a.kind === 'plan' ? 'Plan' : a.kind === 'report' ? 'Report' : a.kind}: ${a.title}`,
      '',
      a.content.trim(),
      '',
    );
    if (a.citations?.length) {
      out.push('### Sources', '');
      for (const c of a.citations) out.push(`${c.n}. [${(c.title ?? c.url).replace(/[[\]]/g, '')}](<${c.url}>)`);
      out.push('');
    }
  }
  return `${out.join('\n').trimEnd()}\n`;
}

// A sub-agent's transcript as plain text, for the Markdown and HTML exports: its task, each step (tool
// calls and what it wrote), how it ended, what it cost, and the files it read and changed.
import { formatTokens, formatUsd, type SubagentView } from '../../protocol';

export function subagentHead(v: SubagentView): string {
  const tokens = v.usage ? ` · ${formatTokens(v.usage.inputTokens + v.usage.outputTokens)} tokens` : '';
  const cost = v.usage?.costUsd !== undefined ? ` · ${formatUsd(v.usage.costUsd)}` : '';
  return `Sub-agent: ${v.name} — ${v.status} · ${v.modelCalls} model calls${tokens}${cost}`;
}

export function subagentTranscript(v: SubagentView): string {
  const lines = [`Task (${v.description}):`, v.prompt.trim(), ''];
  for (const s of v.steps) {
    if (s.kind === 'tool') lines.push(`→ ${s.name} ${s.subject} (${s.status})`);
    else if (s.text.trim()) lines.push(s.text.trim());
  }
  if (v.filesRead?.length) lines.push('', `Files read: ${v.filesRead.join(', ')}`);
  if (v.filesChanged?.length) lines.push(`Files changed: ${v.filesChanged.join(', ')}`);
  return lines.join('\n');
}

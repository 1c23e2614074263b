// A sub-agent started by the `task` tool, as a collapsible card inside that call's card: a `group`
// named "Sub-agent: <name>" with its task, live steps, tokens and cost, and Stop while it runs.
import { html, nothing, type TemplateResult } from 'lit';
import { formatTokens, formatUsd, type SubagentStep, type SubagentView } from '../../extension/protocol';
import type { HostChannel } from '../host';

const STATUS: Record<SubagentView['status'], string> = {
  waiting: 'Waiting for a free slot',
  running: 'Running',
  done: 'Done',
  error: 'Failed',
  stopped: 'Stopped',
  budget: 'Stopped at its spending cap',
  max_steps: 'Stopped at its step limit',
};

/** Steps shown while open: the last ones (the whole transcript stays in the store and the exports). */
const SHOWN_STEPS = 60;

function renderStep(s: SubagentStep): TemplateResult {
  if (s.kind === 'text') return html`<li class="subagent-text">${s.text.trim()}</li>`;
  return html`<li class="subagent-tool status-${s.status}">
    <span class="tool-name">${s.name}</span> <code>${s.subject}</code> <span class="tool-status-text">${s.status}</span>
  </li>`;
}

/** The model a sub-agent ran on, and why it is not the one its definition names, if it is not. */
function renderModel(v: SubagentView): TemplateResult | typeof nothing {
  if (!v.model) return nothing;
  return html`<p class="subagent-model">Model: ${v.model}${v.modelNote ? ` (${v.modelNote})` : ''}</p>`;
}

export function renderSubagentCard(callId: string, v: SubagentView, host: HostChannel | undefined): TemplateResult {
  const live = v.status === 'running' || v.status === 'waiting';
  const tokens = v.usage ? `${formatTokens(v.usage.inputTokens + v.usage.outputTokens)} tokens` : '';
  const cost = v.usage?.costUsd !== undefined ? formatUsd(v.usage.costUsd) : v.usage ? 'price unknown' : '';
  const steps = v.steps.filter((s) => s.kind === 'tool' || s.text.trim());
  return html`<details class="subagent-card" role="group" aria-label=${`Sub-agent: ${v.name}`} ?open=${live}>
    <summary>
      <strong>${v.name}</strong> · ${v.description}
      <span class="subagent-status" role="status">${STATUS[v.status]}</span>
      <span class="subagent-usage">${[`${v.modelCalls} steps`, tokens, cost].filter(Boolean).join(' · ')}</span>
    </summary>
    ${
      live && host
        ? html`<vscode-button
            secondary
            aria-label=${`Stop sub-agent ${v.name}`}
            @click=${() => host.post({ type: 'stopSubagent', callId })}
            >Stop</vscode-button
          >`
        : nothing
    }
    ${renderModel(v)}
    <details class="subagent-prompt"><summary>Task</summary><pre>${v.prompt}</pre></details>
    <ol class="subagent-steps" aria-label="Steps">
      ${steps.slice(-SHOWN_STEPS).map(renderStep)}
    </ol>
    ${v.filesChanged?.length ? html`<p class="subagent-files">Changed: ${v.filesChanged.join(', ')}</p>` : nothing}
  </details>`;
}

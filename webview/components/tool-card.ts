// A tool call as a compact card: tool, subject, status (spinner while running), duration,
// a result preview, the full result behind a disclosure, and live output of a running command.
import { html, nothing, type TemplateResult } from 'lit';
import type { ImageRef, ToolCallView, ToolStatus } from '../../extension/protocol';
import { renderTextOrDiff } from '../diff-lines';
import type { HostChannel } from '../host';
import { renderSubagentCard } from './subagent-card';
import './memory-card';

const STATUS_LABELS: Record<ToolStatus, string> = {
  pending: 'Pending',
  awaiting_approval: 'Waiting for approval',
  running: 'Running',
  ok: 'Done',
  error: 'Failed',
  denied: 'Denied',
  aborted: 'Stopped',
};

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

export function renderToolCard(
  call: ToolCallView,
  host?: HostChannel,
  image?: (ref: ImageRef, alt: string) => TemplateResult,
): TemplateResult {
  const running = call.status === 'running' || call.status === 'pending';
  return html`<section class="tool-card status-${call.status}" role="group" aria-label=${`Tool: ${call.name}`}>
    <div class="tool-head">
      <span class="tool-name">${call.name}</span>
      <code class="tool-subject" title=${call.subject}>${call.subject}</code>
      <span class="tool-status" role="status">
        ${
          running
            ? html`<vscode-progress-ring
                class="spinner"
                role="progressbar"
                aria-live="off"
                aria-label="Running"
              ></vscode-progress-ring>`
            : nothing
        }
        <span class="tool-status-text">${STATUS_LABELS[call.status]}</span>
        ${
          call.durationMs !== undefined
            ? html`<span class="tool-duration">· ${formatDuration(call.durationMs)}</span>`
            : nothing
        }
      </span>
    </div>
    ${call.subagent ? renderSubagentCard(call.callId, call.subagent, host) : nothing}
    ${
      call.memory && running
        ? html`<sx-memory-card .callId=${call.callId} .memory=${call.memory} .host=${host}></sx-memory-card>`
        : nothing
    }
    ${
      call.liveOutput && running
        ? html`<pre class="tool-live" aria-label="Live output">${call.liveOutput}</pre>`
        : nothing
    }
    ${call.summary ? html`<p class="tool-summary">${call.summary}</p>` : nothing}
    ${
      call.review
        ? html`<p class="tool-review tool-review-${call.review.decision}" role="note">
            Reviewed: ${call.review.decision === 'allow' ? 'allowed' : 'asks you'} — ${call.review.reason}${
              call.review.model ? html` <span class="tool-review-model">(${call.review.model})</span>` : nothing
            }
          </p>`
        : nothing
    }
    ${
      call.hooks?.length
        ? html`<ul class="tool-hooks" aria-label="Hooks">
            ${call.hooks.map((h) => html`<li>${h}</li>`)}
          </ul>`
        : nothing
    }
    ${
      call.images?.length && image
        ? html`<div class="tool-images">
            ${call.images.map((ref, i) => image(ref, `Screenshot ${i + 1} (${ref.width ?? '?'}×${ref.height ?? '?'})`))}
          </div>`
        : nothing
    }
    ${call.preview ? renderTextOrDiff(call.preview, 'tool-preview') : nothing}
    ${
      call.detail
        ? html`<details class="tool-detail">
            <summary>Full result</summary>
            ${renderTextOrDiff(call.detail, '')}
          </details>`
        : call.liveOutput && !running
          ? html`<details class="tool-detail"><summary>Full output</summary><pre>${call.liveOutput}</pre></details>`
          : nothing
    }
  </section>`;
}

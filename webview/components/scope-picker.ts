// The "Research scope" radio group (Web, Workspace, Both): where a research run looks. Shown under the
// composer in Research mode and on a proposed research plan's card; the choice is the host's (kept per
// workspace), so the palette's Research… and an approved plan use it too.
import { html, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import type { ResearchScope } from '../../extension/protocol';
import type { HostChannel } from '../host';

const SCOPES: Array<[ResearchScope, string, string]> = [
  ['web', 'Web', 'Search the web'],
  ['workspace', 'Workspace', "Read this workspace's files only (no web search, no search key needed)"],
  ['both', 'Both', "Search the web and read this workspace's files"],
];

export function renderScopePicker(scope: ResearchScope, host: HostChannel, name: string): TemplateResult {
  return html`<div class="scope-picker" role="radiogroup" aria-label="Research scope">
    ${SCOPES.map(
      ([value, label, title]) => html`<label class="scope-option" title=${title}>
        <input
          type="radio"
          name=${name}
          .value=${value}
          .checked=${live(scope === value)}
          @change=${() => host.post({ type: 'setResearchScope', scope: value })}
        /><span>${label}</span>
      </label>`,
    )}
  </div>`;
}

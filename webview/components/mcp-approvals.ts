// MCP servers waiting for the user — a workspace server before its first start, a server whose
// configuration changed, a server whose tool list changed — each a card with exactly what would run
// (the full command line or URL, env and header names without values, the variables it reads from the
// user's environment) or what changed in its tools, and "Approve server" / "Deny server". Problems in
// the MCP configuration (a bad .mcp.json) are shown above them.
import { html, nothing } from 'lit';
import type { McpServerView, McpToolView } from '../../extension/protocol';
import type { Topic } from '../store';
import { revealInvisible } from '../invisible';
import { LightElement, defineElement } from './base';

const HEADLINE: Record<NonNullable<McpServerView['approval']>['reason'], (s: McpServerView) => string> = {
  new: (s) => `This workspace's .mcp.json wants to start the MCP server "${s.name}".`,
  config_changed: (s) => `The configuration of the MCP server "${s.name}" changed since you approved it.`,
  tools_changed: (s) =>
    `The MCP server "${s.name}" changed its tools. Until you approve, the model sees only its unchanged tools.`,
};

export class SxMcpApprovals extends LightElement {
  /** Servers answered here (by name and reason), so a double click cannot send two decisions. */
  private readonly decided = new Set<string>();

  protected override topics(): Topic[] {
    return ['panels'];
  }

  private key(s: McpServerView): string {
    // A card drawn for another configuration or tool list is a new card: it can be answered again.
    return `${s.name}:${s.approval?.reason}:${s.approval?.configHash ?? ''}:${s.approval?.toolsHash ?? ''}`;
  }

  private decide(s: McpServerView, decision: 'approve' | 'deny'): void {
    if (!this.ctx || this.decided.has(this.key(s))) return;
    this.decided.add(this.key(s));
    if (!s.approval) return;
    // The hashes this card shows go back with the answer: the manager approves only what was shown.
    const { configHash, toolsHash } = s.approval;
    this.ctx.host.post({
      type: 'mcpDecision',
      server: s.name,
      decision,
      configHash,
      ...(toolsHash !== undefined && { toolsHash }),
    });
    this.requestUpdate();
  }

  private renderTool(t: McpToolView, change: string): unknown {
    const hints = [
      t.readOnly ? 'read-only' : 'may change things',
      t.destructive ? 'destructive' : '',
      t.openWorld ? 'open world' : '',
    ]
      .filter(Boolean)
      .join(', ');
    return html`<li>
      <strong>${change} ${t.name}</strong> <span class="mcp-hints">(${hints})</span>
      <pre class="approval-detail">${revealInvisible(t.description).text}</pre>
      ${
        t.schema
          ? html`<details>
              <summary>Input schema</summary>
              <pre class="approval-detail">${t.schema}</pre>
            </details>`
          : nothing
      }
    </li>`;
  }

  private renderServer(s: McpServerView): unknown {
    const a = s.approval;
    if (!a) return nothing;
    const done = this.decided.has(this.key(s));
    const what = s.commandLine ? revealInvisible(s.commandLine).text : s.url;
    return html`<section class="approval card mcp-approval" role="group" aria-label=${`MCP server: ${s.name}`}>
      <div class="approval-head">${HEADLINE[a.reason](s)}</div>
      ${
        a.reason === 'tools_changed'
          ? html`<ul class="mcp-tool-diff">
              ${a.added.map((t) => this.renderTool(t, 'New tool'))}
              ${a.changed.map((t) => this.renderTool(t, 'Changed tool'))}
              ${a.removed.map((n) => html`<li><strong>Removed tool ${n}</strong></li>`)}
            </ul>`
          : html`
              <div>${s.commandLine ? 'Command (runs on your machine):' : `Connects to (${s.transport}):`}</div>
              <pre class="approval-subject">${what}</pre>
              ${s.envNames.length ? html`<p>Environment: ${s.envNames.join(', ')} (values hidden)</p>` : nothing}
              ${s.headerNames.length ? html`<p>Headers: ${s.headerNames.join(', ')} (values hidden)</p>` : nothing}
              ${
                s.readsEnv.length
                  ? html`<p class="approval-warning">Reads from your environment: ${s.readsEnv.join(', ')}</p>`
                  : nothing
              }
              <p class="approval-reason">
                Its tools are listed when it first connects; if they change later, Sextant asks again.
              </p>
            `
      }
      <div class="actions">
        <vscode-button ?disabled=${done} @click=${() => this.decide(s, 'approve')}>Approve server</vscode-button>
        <vscode-button secondary ?disabled=${done} @click=${() => this.decide(s, 'deny')}>Deny server</vscode-button>
      </div>
    </section>`;
  }

  protected override render(): unknown {
    if (!this.ctx) return nothing;
    const { servers, problems } = this.ctx.store.mcp;
    const waiting = servers.filter((s) => s.state === 'needs_approval' && s.approval);
    if (!waiting.length && !problems.length) return nothing;
    return html`${
      problems.length
        ? html`<div class="banner error" role="alert" aria-label="MCP configuration problems">
            ${problems.map((p) => html`<div>${p}</div>`)}
          </div>`
        : nothing
    }
      ${waiting.map((s) => this.renderServer(s))}`;
  }
}

defineElement('sx-mcp-approvals', SxMcpApprovals);

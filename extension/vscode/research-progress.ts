// The VS Code progress notification of a research run, with Cancel. It follows the same events the
// chat gets (research_progress, then the request's terminal event), so it needs no hook in core:
// the runtime passes every outbound message through observe() on its way to the webview.
import * as vscode from 'vscode';
import { researchPercent, type Outbound, type ResearchProgress } from '../protocol';

const PHASES: Record<ResearchProgress['phase'], string> = {
  planning: 'planning the searches',
  searching: 'searching',
  reading: 'reading sources',
  evaluating: 'looking for gaps',
  writing: 'writing the report',
  verifying: 'checking citations',
  done: 'done',
};

interface Run {
  report(p: ResearchProgress): void;
  end(): void;
}

export class ResearchNotifier {
  private readonly runs = new Map<string, Run>();

  constructor(private readonly cancel: (requestId: string) => void) {}

  observe(message: Outbound): void {
    if (message.type !== 'events') return;
    for (const env of message.envelopes) {
      const ev = env.event;
      if (ev.type === 'research_progress') {
        let run = this.runs.get(env.requestId);
        if (!run) {
          run = this.start(env.requestId);
          this.runs.set(env.requestId, run);
        }
        run.report(ev.progress);
      } else if (ev.type === 'complete' || ev.type === 'aborted' || ev.type === 'error') {
        this.runs.get(env.requestId)?.end();
        this.runs.delete(env.requestId);
      }
    }
  }

  dispose(): void {
    for (const run of this.runs.values()) run.end();
    this.runs.clear();
  }

  private start(requestId: string): Run {
    let progress: vscode.Progress<{ message?: string; increment?: number }> | undefined;
    let pending: ResearchProgress | undefined;
    let shown = 0;
    let finish!: () => void;
    const ended = new Promise<void>((resolve) => (finish = resolve));
    const show = (p: ResearchProgress) => {
      if (!progress) {
        pending = p;
        return;
      }
      const pct = researchPercent(p);
      progress.report({
        message: `${PHASES[p.phase]} — ${p.searchesDone}/${p.searchesPlanned} searches, ${p.sourcesRead} sources read`,
        increment: Math.max(0, pct - shown),
      });
      shown = Math.max(shown, pct);
    };
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: 'Sextant research', cancellable: true },
      (p, token) => {
        progress = p;
        if (pending) show(pending);
        token.onCancellationRequested(() => this.cancel(requestId));
        return ended;
      },
    );
    return { report: show, end: finish };
  }
}

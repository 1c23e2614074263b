// "Edit plan": a plan opens as an untitled Markdown document. While that document is open, Approve
// runs its current text, so the edited plan is what the Agent carries out.
import * as vscode from 'vscode';
import { planArtifactToMarkdown, type PlanArtifact } from '../protocol';

export class PlanDocuments {
  private readonly docs = new Map<string, vscode.TextDocument>();

  /** Opens (or shows again) the plan's document. */
  async open(plan: PlanArtifact): Promise<void> {
    let doc = this.docs.get(plan.id);
    if (!doc || doc.isClosed) {
      doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: planArtifactToMarkdown(plan) });
      this.docs.set(plan.id, doc);
    }
    await vscode.window.showTextDocument(doc, { preview: false });
  }

  /** The edited text of a plan, if its document is still open. */
  editedText(planId: string): string | undefined {
    const doc = this.docs.get(planId);
    if (!doc) return undefined;
    if (doc.isClosed) {
      this.docs.delete(planId);
      return undefined;
    }
    return doc.getText();
  }

  forget(planId: string): void {
    this.docs.delete(planId);
  }
}

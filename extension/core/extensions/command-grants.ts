// Whether a slash command's `allowed-tools` pre-approve anything for the turn it starts. The user's own
// command files apply as written; a workspace file applies only in a trusted workspace, with its too-broad
// rules dropped, and only once the user approved this exact file (its hash) — asked once per version.
import { mapAllowedTools, type PreApproval } from './allowed-tools';
import type { CommandGrant } from './prompt-expansion';

export interface GrantHost {
  trusted(): boolean;
  /** The hash the user approved this workspace file at, if any (VS Code's workspace state). */
  approvedHash(file: string): string | undefined;
  remember(file: string, hash: string): Promise<void>;
  /** Asks whether the workspace command may pre-approve these rules (a modal); false when declined. */
  ask(q: { command: string; file: string; rules: string[]; dropped: string[] }): Promise<boolean>;
}

export async function preApprovalFor(grant: CommandGrant, host: GrantHost): Promise<PreApproval | undefined> {
  const source = `/${grant.command}`;
  if (grant.scope === 'user') {
    const { rules } = mapAllowedTools(grant.allowedTools, { workspace: false });
    return rules.length ? { rules, source } : undefined;
  }
  if (!host.trusted()) return undefined;
  const { rules, dropped } = mapAllowedTools(grant.allowedTools, { workspace: true });
  if (!rules.length) return undefined;
  if (host.approvedHash(grant.file) !== grant.hash) {
    const yes = await host.ask({
      command: grant.command,
      file: grant.file,
      rules,
      dropped: dropped.map((d) => `${d.entry} (${d.why})`),
    });
    if (!yes) return undefined;
    await host.remember(grant.file, grant.hash);
  }
  return { rules, source };
}

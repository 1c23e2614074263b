// The pull request for a pushed branch: with the GitHub CLI when it is installed and logged in
// (`gh auth status`), else the body goes to the clipboard and the compare URL (made from the remote's
// URL) is opened, where the user pastes it. Title and body come from the session (pr-text.ts).
import { defaultChildEnv } from '../security/child-env';
import { runProgram } from './git-exec';

export interface PullRequestText {
  title: string;
  body: string;
}

export interface PullRequestPorts {
  copyToClipboard(text: string): Promise<void>;
  /** Opens the URL in the browser (the editor asks first); absent: only reported. */
  openUrl?(url: string): Promise<void>;
}

export type PullRequestResult =
  | { kind: 'gh'; url: string }
  | { kind: 'compare'; url: string | undefined; copied: true; why: string };

/** `https://host/owner/repo/compare/base...head?expand=1` from an https, ssh or scp-like remote URL. */
export function compareUrl(remoteUrl: string, base: string, head: string): string | undefined {
  const u = remoteUrl.trim();
  const scp = /^(?:[\w.-]+@)?([\w.-]+):(?!\/)(.+?)(?:\.git)?\/?$/.exec(u);
  const url = /^(?:https?|ssh|git):\/\/(?:[^@/]+@)?([^/:]+)(?::\d+)?\/(.+?)(?:\.git)?\/?$/.exec(u);
  const m = url ?? (u.includes('://') ? null : scp);
  if (!m?.[1] || !m[2] || m[2].split('/').length < 2) return undefined;
  const enc = (b: string) => b.split('/').map(encodeURIComponent).join('/');
  return `https://${m[1]}/${m[2]}/compare/${enc(base)}...${enc(head)}?expand=1`;
}

/**
 * gh gets the scrubbed environment plus its own token variables (it is the user's tool, logged in as the
 * user; its output goes to the user, never to a model).
 */
export function ghEnv(base: Record<string, string> = defaultChildEnv()): Record<string, string> {
  const env: Record<string, string> = { ...base, GH_PROMPT_DISABLED: '1', NO_COLOR: '1', GH_NO_UPDATE_NOTIFIER: '1' };
  for (const name of ['GH_TOKEN', 'GITHUB_TOKEN', 'GH_HOST', 'GH_ENTERPRISE_TOKEN'])
    if (process.env[name] && !base[name]) env[name] = process.env[name] as string;
  return env;
}

/** Whether `gh` can open the pull request: installed (on PATH) and logged in. */
export async function ghReady(cwd: string, env: Record<string, string>): Promise<{ ok: boolean; why: string }> {
  const version = await runProgram('gh', ['--version'], cwd, env);
  if (version.code !== 0) return { ok: false, why: 'the GitHub CLI (gh) is not installed' };
  const auth = await runProgram('gh', ['auth', 'status'], cwd, env);
  if (auth.code !== 0) return { ok: false, why: 'the GitHub CLI is not logged in (gh auth login)' };
  return { ok: true, why: '' };
}

export async function openPullRequest(
  cwd: string,
  pr: PullRequestText & { base: string; head: string; remoteUrl: string },
  ports: PullRequestPorts,
  env: Record<string, string> = ghEnv(),
): Promise<PullRequestResult> {
  const gh = await ghReady(cwd, env);
  if (gh.ok) {
    const args = ['pr', 'create', '--title', pr.title, '--body-file', '-', '--base', pr.base, '--head', pr.head];
    const r = await runProgram('gh', args, cwd, env, { input: pr.body });
    const url = /https?:\/\/\S+/.exec(r.stdout)?.[0];
    if (r.code === 0 && url) return { kind: 'gh', url };
    return fallback(pr, ports, `gh pr create failed: ${(r.stderr || r.stdout).trim().slice(0, 500)}`);
  }
  return fallback(pr, ports, gh.why);
}

async function fallback(
  pr: PullRequestText & { base: string; head: string; remoteUrl: string },
  ports: PullRequestPorts,
  why: string,
): Promise<PullRequestResult> {
  await ports.copyToClipboard(`${pr.title}\n\n${pr.body}`);
  const url = compareUrl(pr.remoteUrl, pr.base, pr.head);
  if (url) await ports.openUrl?.(url);
  return { kind: 'compare', url, copied: true, why };
}

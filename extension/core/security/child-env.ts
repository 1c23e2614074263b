// The environment a command the agent runs gets. The extension host's environment holds the
// user's keys (OPENAI_API_KEY, cloud credentials, tokens); a command inheriting it can print or
// send them, and its output reaches the model. So every variable named by a provider's
// `apiKeyEnv`, every variable whose name says it is a secret, and every value that carries
// credentials in a URL is dropped, unless the user chose to pass that name through.

import { withGitSafety } from './git-safety';

/** Names that say "secret": FOO_API_KEY, GITHUB_TOKEN, AZURE_CLIENT_SECRET, PGPASSWORD, … */
const SECRET_WORDS = [
  'API_?KEY',
  'APIKEY',
  'KEY_?ID',
  'TOKEN',
  'SECRET',
  'SECRET_?KEY',
  'PASSWORD',
  'PASSWD',
  'PASS',
  'CREDENTIALS?',
  'PRIVATE_?KEY',
  'ACCESS_?KEY(?:_?ID)?',
  'SESSION_?TOKEN',
  'AUTH',
];
const SECRET_NAME = new RegExp(`(?:^|_)(?:${SECRET_WORDS.join('|')})(?:$|_)`, 'i');

/** Whole names of credentials that do not follow the pattern. */
const SECRET_NAMES = new Set([
  'PGPASSWORD',
  'MYSQL_PWD',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'AWS_PROFILE',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AZURE_CLIENT_CERTIFICATE_PATH',
  'KUBECONFIG',
  'DOCKER_AUTH_CONFIG',
  'NETRC',
  'SSH_AUTH_SOCK',
  'GPG_AGENT_INFO',
  'VAULT_TOKEN',
]);

/** `scheme://user:password@host`: a URL that carries a password (DATABASE_URL, proxies, …). */
const CREDENTIAL_URL = /[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:[^\s/@]+@/i;

export interface ChildEnvOptions {
  /** Variables the configured providers read their keys from (`apiKeyEnv`). */
  readonly apiKeyEnvNames: Iterable<string>;
  /** Names the user chose to pass through anyway. */
  readonly passThrough?: Iterable<string>;
}

export interface ChildEnv {
  env: Record<string, string>;
  /** Names dropped (never their values), for the audit log and a hint on the tool card. */
  removed: string[];
}

/** Whether a variable looks like a credential, by its name or its value. */
export function isSecretVariable(name: string, value: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_NAMES.has(upper) || SECRET_NAME.test(upper) || CREDENTIAL_URL.test(value);
}

export function childEnvironment(
  source: Readonly<Record<string, string | undefined>>,
  options: ChildEnvOptions,
): ChildEnv {
  const keyVars = new Set([...options.apiKeyEnvNames].map((n) => n.toUpperCase()));
  const pass = new Set([...(options.passThrough ?? [])].map((n) => n.toUpperCase()));
  const env: Record<string, string> = {};
  const removed: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    const secret = keyVars.has(upper) || isSecretVariable(name, value);
    if (secret && !pass.has(upper)) {
      removed.push(name);
      continue;
    }
    env[name] = value;
  }
  removed.sort();
  return { env: withGitSafety(env), removed };
}

/** The host's environment scrubbed by name and value alone: what a process gets when no port says more. */
export function defaultChildEnv(): Record<string, string> {
  return childEnvironment(process.env, { apiKeyEnvNames: [] }).env;
}

// The environment a command the agent runs gets. The extension host's environment holds the
// user's keys (OPENAI_API_KEY, cloud credentials, tokens); a command inheriting it can print or
// send them, and its output reaches the model. So every variable named by a provider's
// `apiKeyEnv`, every variable whose name says it is a secret, and every value that carries
// credentials in a URL or has the shape of a key the redaction patterns know (`OPENAI=sk-…`) is
// dropped, unless the user chose to pass that name through.

import { withGitSafety } from './git-safety';
import { looksLikeSecret } from './redact';

/**
 * Words that say "secret" when they stand as a whole `_`-separated part of a name: FOO_API_KEY,
 * OPENAI_KEY, GITHUB_TOKEN, GH_PAT, PGPASSWORD… (`KEY` alone counts: STRIPE_KEY, AZURE_OPENAI_KEY;
 * as a part only, so KEYBOARD_LAYOUT and TOKENIZERS_PARALLELISM stay).
 */
const SECRET_WORDS = [
  'API_?KEY',
  'APIKEY',
  'KEY',
  'KEYS',
  'KEY_?ID',
  'PAT',
  'PW',
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

/**
 * Words that say "secret" at the end of a name's part, glued to what they qualify: npm's
 * `npm_config__authToken`, NGROK_AUTHTOKEN, CI_JOB_JWT, SLACK_WEBHOOK_URL, GPG_PASSPHRASE,
 * SIGNING_KEY_PASSPHRASE, MYAPIKEY. (Not KEY: HOTKEY, MONKEY; not TOKEN at a part's start: TOKENIZERS.)
 */
const SECRET_ENDING = /(?:^|_)[A-Z0-9]*(?:TOKEN|PASSWORD|PASSPHRASE|APIKEY|JWT|WEBHOOK)(?:$|_)/i;

/** npm's auth settings as environment variables: npm_config__auth, npm_config_//host/:_authToken. */
const NPM_AUTH = /^npm_config_.*_auth/i;

/** `SECRET` anywhere in a name (CLIENTSECRET, MYSECRETVALUE): no ordinary variable spells it. */
const SECRET_ANYWHERE = /SECRET/i;

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

/**
 * A URL that carries credentials: `scheme://user:password@host` (DATABASE_URL, proxies), an empty
 * user with a password (`redis://:pw@host`), or a token as the user part (`https://ghp_…@github.com`:
 * a user part of 16 or more characters; short ones such as `ssh://git@host` are names, not secrets).
 */
const CREDENTIAL_URL = /[a-z][a-z0-9+.-]*:\/\/(?:[^\s/:@]*:[^\s/@]+|[^\s/:@]{16,})@/i;

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
  return (
    SECRET_NAMES.has(upper) ||
    SECRET_NAME.test(upper) ||
    SECRET_ENDING.test(upper) ||
    SECRET_ANYWHERE.test(upper) ||
    NPM_AUTH.test(name) ||
    CREDENTIAL_URL.test(value) ||
    looksLikeSecret(value)
  );
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

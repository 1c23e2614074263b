// Secret redaction for exports, logs and the store. Two layers: patterns for the shapes of keys
// the known providers issue (and generic bearer tokens, AWS keys, private key blocks), and the
// exact values of secrets we hold (API keys from SecretStorage), which catch any shape.
export const REDACTED = '[REDACTED]';

/** Exact values shorter than this are not redacted: they would match ordinary words. */
const MIN_EXACT = 8;

/** The BEGIN or END line of a PEM private key block (RSA, EC, OPENSSH, PKCS#8, encrypted). */
const pemLine = (edge: 'BEGIN' | 'END') => `-----${edge} (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----`;

/** Names of assignments whose value is a secret (`apiKey: …`, `password=…`). */
const SECRET_NAMES = 'api[_-]?key|x-api-key|secret|password|passwd|access[_-]?token|auth[_-]?token';

/** Each pattern with the number of leading capture groups kept (a label such as "Bearer "). */
const PATTERNS: ReadonlyArray<readonly [RegExp, number]> = [
  // PEM private keys, including a block cut off at the end.
  [new RegExp(`${pemLine('BEGIN')}[\\s\\S]*?(?:${pemLine('END')}|$)`, 'g'), 0],
  // OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), OpenRouter (sk-or-v1-), DeepSeek, Moonshot, MiniMax (sk-…).
  [/\bsk-[A-Za-z0-9_-]{16,}/g, 0],
  // Google / Gemini API keys.
  [/\bAIza[0-9A-Za-z_-]{30,}/g, 0],
  // AWS access key ids and secret keys in key=value form.
  [/\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g, 0],
  [/(aws_secret_access_key|aws_session_token|secret_?access_?key)(["'\s:=]+)[A-Za-z0-9/+=]{30,}/gi, 2],
  // Bearer tokens in headers or text.
  [/(\bBearer\s+)[A-Za-z0-9._~+/=-]{12,}/gi, 1],
  // Search providers: Tavily, Firecrawl, Exa-style uuids are caught by exact values; Brave (BSA…).
  [/\btvly-[A-Za-z0-9_-]{16,}/g, 0],
  [/\bfc-[A-Za-z0-9]{24,}/g, 0],
  [/\bBSA[A-Za-z0-9_-]{20,}/g, 0],
  // GitHub, GitLab, Slack, Hugging Face, Groq, xAI, Stripe.
  [/\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}/g, 0],
  [/\bgithub_pat_[A-Za-z0-9_]{40,}/g, 0],
  [/\bglpat-[A-Za-z0-9_-]{20,}/g, 0],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/g, 0],
  [/\bhf_[A-Za-z0-9]{30,}/g, 0],
  [/\bgsk_[A-Za-z0-9]{30,}/g, 0],
  [/\bxai-[A-Za-z0-9]{30,}/g, 0],
  [/\b[rs]k_live_[A-Za-z0-9]{20,}/g, 0],
  // JSON Web Tokens (some providers, e.g. MiniMax group keys, are JWTs).
  [/\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, 0],
];

/** Whether `value` holds a key of a known shape (the patterns above): an environment variable's value, say. */
export function looksLikeSecret(value: string): boolean {
  return PATTERNS.some(([re]) => {
    re.lastIndex = 0;
    const hit = re.test(value);
    re.lastIndex = 0;
    return hit;
  });
}

/** Generic `password = …` assignments: right for exports and logs, too eager for stored code. */
const ASSIGNMENTS: ReadonlyArray<readonly [RegExp, number]> = [
  // key=value / "apiKey": "…" assignments whose name says secret.
  [new RegExp(`((?:${SECRET_NAMES})["']?\\s*[:=]\\s*["']?)([^\\s"',;]{8,})`, 'gi'), 1],
];

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export type Redactor = (text: string) => string;

/**
 * Builds a redactor. `secrets` are exact values to remove wherever they appear (also in their
 * JSON-escaped and URL-encoded forms). `assignments: false` leaves `password = x` alone (the
 * store uses that, so code the user discussed is not rewritten).
 */
export function createRedactor(secrets: Iterable<string> = [], opts: { assignments?: boolean } = {}): Redactor {
  const patterns = opts.assignments === false ? PATTERNS : [...PATTERNS, ...ASSIGNMENTS];
  const exact = new Set<string>();
  for (const s of secrets) {
    if (typeof s !== 'string' || s.length < MIN_EXACT) continue;
    exact.add(s);
    exact.add(JSON.stringify(s).slice(1, -1));
    exact.add(encodeURIComponent(s));
  }
  const exactRe = exact.size
    ? new RegExp(
        [...exact]
          .sort((a, b) => b.length - a.length)
          .map(escapeRegExp)
          .join('|'),
        'g',
      )
    : undefined;
  return (text: string) => {
    if (typeof text !== 'string' || text.length < MIN_EXACT) return text;
    let out = exactRe ? text.replace(exactRe, REDACTED) : text;
    for (const [re, keep] of patterns) {
      re.lastIndex = 0;
      out = out.replace(re, (_match: string, ...groups: unknown[]) => `${groups.slice(0, keep).join('')}${REDACTED}`);
    }
    return out;
  };
}

/** Returns a copy of a JSON-like value with every string redacted (object keys are kept). */
export function redactDeep<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T;
  if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, redact);
    return out as T;
  }
  return value;
}

/**
 * A redactor over a changing set of exact values (e.g. the live Set of stored API keys): it reads
 * `secrets()` on every call and rebuilds its patterns only when the values changed.
 */
export function createLiveRedactor(secrets: () => Iterable<string>, opts: { assignments?: boolean } = {}): Redactor {
  let cache: { key: string; redact: Redactor } | undefined;
  return (text: string) => {
    const values = [...secrets()];
    const key = values.join('\u0000');
    if (cache?.key !== key) cache = { key, redact: createRedactor(values, opts) };
    return cache.redact(text);
  };
}

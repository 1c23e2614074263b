// A key is bound to the server it was meant for. "Sextant: Set API Key" records the origin
// (scheme, host, port) of the provider's base URL next to the key; a key from the environment
// belongs to the preset's own server (or, for the user's own provider, to the URL the user
// configured). Before a key leaves for another origin the user is asked — once, always (which
// rebinds the key to the new host), or not at all, and then nothing is sent. This is the pure part;
// the question itself is a port the VS Code side implements with a modal dialog.
import type { SecretsPort } from '../ports';
import type { Embedder } from '../store/embeddings';
import type { ResolvedKey } from './keys';
import { PRESETS } from './presets';
import { ProviderError, type ProviderConfig, type ProviderKind } from './types';

/** Where each kind's SDK sends requests when no base URL is configured. */
export const DEFAULT_BASE_URLS: Readonly<Record<ProviderKind, string | undefined>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  'vscode-lm': undefined,
};

/** `https://host:port` of an http(s) URL, or undefined. */
export function originOf(url: string | undefined): string | undefined {
  if (!url?.trim()) return undefined;
  try {
    const u = new URL(url.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The origin requests to `url` go to; an unparsable URL is returned as it is (it matches no
 * binding, so the user is asked). Undefined only when there is no URL at all.
 */
export function destinationOfUrl(url: string | undefined): string | undefined {
  return originOf(url) ?? (url?.trim() || undefined);
}

/** The origin a provider's requests go to (undefined for a kind that needs no server). */
export function destinationOf(config: Pick<ProviderConfig, 'baseUrl' | 'kind'>): string | undefined {
  return destinationOfUrl(config.baseUrl ?? DEFAULT_BASE_URLS[config.kind]);
}

/** The SecretStorage entry that records the origin a key is bound to. */
export function keyBindingName(provider: string, key: Pick<ResolvedKey, 'source' | 'envName'>): string {
  return key.source === 'stored'
    ? `sextant.apiKeyOrigin.${provider}`
    : `sextant.envKeyOrigin.${provider}.${key.envName ?? ''}`;
}

/**
 * Where a key belongs when nothing was recorded for it: a preset's own server for its stored key or
 * its own environment variable; otherwise the URL configured (in user settings) for the provider.
 */
export function defaultKeyOrigin(
  config: Pick<ProviderConfig, 'name' | 'baseUrl' | 'kind'>,
  key: Pick<ResolvedKey, 'source' | 'envName'>,
): string | undefined {
  const preset = PRESETS.find((p) => p.name === config.name);
  if (preset && (key.source === 'stored' || key.envName === preset.apiKeyEnv)) return destinationOf(preset);
  return destinationOf(config);
}

export type KeyVerdict = 'send' | 'ask';

/** The decision: a key goes without a question only to an origin it is bound to. */
export function keyVerdict(bound: ReadonlyArray<string | undefined>, destination: string | undefined): KeyVerdict {
  if (destination === undefined) return 'send';
  return bound.includes(destination) ? 'send' : 'ask';
}

/** Host (with port) for display; the whole origin when only the scheme differs. */
export function displayHosts(destination: string, bound: string | undefined): { host: string; boundHost: string } {
  const hostOf = (o: string) => {
    try {
      return new URL(o).host || o;
    } catch {
      return o;
    }
  };
  const host = hostOf(destination);
  const boundHost = bound ? hostOf(bound) : 'another server';
  return host === boundHost && bound ? { host: destination, boundHost: bound } : { host, boundHost };
}

export type KeyDestinationAnswer = 'once' | 'always' | 'no';

export interface KeyDestinationQuestion {
  provider: string;
  /** Where the key would go (host, or the origin when only the scheme differs). */
  host: string;
  /** Where the key belongs. */
  boundHost: string;
  source: ResolvedKey['source'];
  envName?: string;
}

/** Asks the user; anything but an explicit choice is `no`. */
export type ConfirmKeyDestination = (question: KeyDestinationQuestion) => Promise<KeyDestinationAnswer>;

export function refusedKeyMessage(q: KeyDestinationQuestion, setting = 'sextant.providers'): string {
  const belongs =
    q.source === 'env'
      ? `it belongs to ${q.boundHost} (from the environment variable ${q.envName ?? '?'})`
      : `it was stored for ${q.boundHost}`;
  return (
    `Sextant did not send your ${q.provider} key to ${q.host}: ${belongs} and sending it to ${q.host} was not ` +
    `confirmed. Check the base URL in ${setting}; if ${q.host} is right, try again and choose "Send once" or ` +
    '"Always for this host".'
  );
}

export interface KeyDestinationCheck {
  /** The provider whose key it is (its name, kind and configured URL). */
  config: Pick<ProviderConfig, 'name' | 'baseUrl' | 'kind'>;
  key: ResolvedKey;
  /** Where the key is about to go: `destinationOf(config)` for requests, the embeddings URL for those. */
  destination: string | undefined;
  secrets: SecretsPort;
  /** Without a way to ask, a key never goes anywhere it is not bound to. */
  confirm?: ConfirmKeyDestination;
  /** Named in the refusal message. */
  setting?: string;
}

/**
 * Resolves when the key may go to `destination` (bound there, or the user said so); throws
 * ProviderError `auth` when the user declined, before anything is sent.
 */
export async function checkKeyDestination(c: KeyDestinationCheck): Promise<void> {
  const verdict = await confirmBoundKey({
    bindingName: keyBindingName(c.config.name, c.key),
    defaultOrigin: defaultKeyOrigin(c.config, c.key),
    provider: c.config.name,
    key: c.key,
    destination: c.destination,
    secrets: c.secrets,
    confirm: c.confirm,
  });
  if (!verdict.ok) throw new ProviderError('auth', refusedKeyMessage(verdict.question, c.setting));
}

/** A key and the binding it is checked against, for any kind of service (LLM providers, web search). */
export interface BoundKeyCheck {
  /** The SecretStorage entry recording the origin the key is bound to. */
  bindingName: string;
  /** Where the key belongs when nothing was recorded (the service's own server). */
  defaultOrigin: string | undefined;
  /** Named in the question. */
  provider: string;
  key: Pick<ResolvedKey, 'source' | 'envName'>;
  destination: string | undefined;
  secrets: SecretsPort;
  confirm?: ConfirmKeyDestination;
}

/**
 * The binding rule shared by every key Sextant holds: a key goes without a question only to an origin
 * it is bound to; otherwise the user is asked (`always` rebinds it). `ok: false` carries the question
 * the user declined, for the caller's refusal message; nothing may then be sent.
 */
export async function confirmBoundKey(
  c: BoundKeyCheck,
): Promise<{ ok: true } | { ok: false; question: KeyDestinationQuestion }> {
  const recorded = originOf(await c.secrets.get(c.bindingName));
  const fallback = c.defaultOrigin;
  // A stored key follows the binding recorded with it; one stored before bindings existed is bound
  // (once, for good) where its provider's defaults say. An environment key also keeps its default.
  const bound = c.key.source === 'stored' ? [recorded ?? fallback] : [recorded, fallback];
  if (c.key.source === 'stored' && !recorded && fallback)
    await c.secrets.set(c.bindingName, fallback).catch(() => undefined);
  if (keyVerdict(bound, c.destination) === 'send') return { ok: true };
  const destination = c.destination as string;
  const question: KeyDestinationQuestion = {
    provider: c.provider,
    ...displayHosts(destination, bound[0] ?? fallback),
    source: c.key.source,
    ...(c.key.envName ? { envName: c.key.envName } : {}),
  };
  const answer = c.confirm ? await c.confirm(question).catch((): KeyDestinationAnswer => 'no') : 'no';
  if (answer === 'once') return { ok: true };
  if (answer === 'always') {
    const origin = originOf(destination);
    if (origin) await c.secrets.set(c.bindingName, origin);
    return { ok: true };
  }
  return { ok: false, question };
}

/**
 * An embedder that checks where the key goes before its first request. The answer holds for this
 * embedder (until the setting or the key changes): memory search must not ask on every search,
 * and a refusal leaves memory search on BM25 alone.
 */
export function embedderWithKeyCheck(inner: Embedder, check: () => Promise<void>): Embedder {
  let checked: Promise<void> | undefined;
  return {
    model: inner.model,
    async embed(texts, signal) {
      checked ??= check();
      await checked;
      return inner.embed(texts, signal);
    },
  };
}

// The ports the runtime gives the tools: the child environment (provider key variables, the
// embeddings' key variable, secret-named variables out; passEnv names in) and the live redactor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createToolSecurity } from '../../../extension/core/security/tool-security';
import { REDACTED } from '../../../extension/core/security/redact';

test('childEnv drops apiKeyEnv names (whatever they are called) and honours passThrough case-insensitively', () => {
  const names: Array<string | undefined> = ['WORK_LLM', undefined, ''];
  let pass: string[] = [];
  const sec = createToolSecurity({
    env: { PATH: '/bin', HOME: '/h', WORK_LLM: 'v1', EMBED_KEY_VAR: 'v2', ANTHROPIC_API_KEY: 'v3', NPM_TOKEN: 't' },
    apiKeyEnvNames: () => names,
    passThrough: () => pass,
    secrets: () => [],
  });
  // The git safety settings (git-safety.ts) are always added; the rest is what passed the scrub.
  const own = () => Object.fromEntries(Object.entries(sec.childEnv()).filter(([k]) => !k.startsWith('GIT_CONFIG_')));
  assert.deepEqual(own(), { PATH: '/bin', HOME: '/h', EMBED_KEY_VAR: 'v2' });
  // Names are read at each call: a provider or a setting added later counts at once.
  names.push('EMBED_KEY_VAR');
  pass = ['npm_token'];
  assert.deepEqual(own(), { PATH: '/bin', HOME: '/h', NPM_TOKEN: 't' });
});

test('redact reads the live secret set and keeps `password = …` code as written', () => {
  const set = new Set<string>();
  const sec = createToolSecurity({ env: {}, apiKeyEnvNames: () => [], passThrough: () => [], secrets: () => set });
  set.add('liveStoredValue-1234');
  assert.equal(sec.redact('k liveStoredValue-1234'), `k ${REDACTED}`);
  assert.equal(sec.redact('password = getPassword()'), 'password = getPassword()');
});

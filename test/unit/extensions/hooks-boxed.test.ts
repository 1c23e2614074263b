// A hook runs in the same OS box as commands (bubblewrap here), through the sandbox port: it reads its
// JSON input and answers on stdout, may write in the workspace, cannot write outside it, and does not
// see the keys of the host's environment. Skipped with the reason where no box works.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { boxedHookRunner } from '../../../extension/core/extensions/hooks/hook-process';
import { childEnvironment } from '../../../extension/core/security/child-env';
import { createSandbox } from '../../../extension/platform/sandbox/create-sandbox';
import { detectBackend } from '../../../extension/platform/sandbox/detect';

const detected = detectBackend();
const skip =
  detected.ok && detected.backend === 'bubblewrap'
    ? false
    : `no bubblewrap box here: ${detected.ok ? detected.backend : detected.reason}`;
if (skip) console.log(`# boxed hook test skipped: ${skip}`);

test('a hook runs boxed: stdin and stdout work, the workspace is writable, outside is not, keys are gone', {
  skip,
}, async () => {
  const base = path.join(process.cwd(), 'test-results', `hook-box-${process.pid}`);
  const ws = path.join(base, 'ws');
  const outside = path.join(base, 'outside');
  mkdirSync(ws, { recursive: true });
  mkdirSync(outside, { recursive: true });
  const real = { ws: realpathSync(ws), outside: realpathSync(outside) };
  const sandbox = createSandbox({
    settings: () => ({ mode: 'box', allowedHosts: [], extraWriteRoots: [] }),
    workspaceFolders: () => [real.ws],
    home: path.join(realpathSync(base), 'home'),
    stateRoot: path.join(realpathSync(base), 'state'),
  });
  const run = boxedHookRunner(() => sandbox);
  const env = childEnvironment({ ...process.env, OPENAI_API_KEY: 'sk-test-123' }, { apiKeyEnvNames: [] }).env;
  try {
    const result = await run({
      command:
        `cat > in.json; touch '${real.ws}/inside'; touch '${real.outside}/escaped' 2>/dev/null; ` +
        'echo "key=${OPENAI_API_KEY:-none}"; cat in.json',
      stdin: '{"hook_event_name":"Stop"}',
      cwd: real.ws,
      env,
      timeoutMs: 60_000,
      signal: new AbortController().signal,
      sessionId: 's',
      callId: 'c',
    });
    assert.equal(result.exitCode, 0, result.stderr);
    assert.match(result.stdout, /key=none/);
    assert.match(result.stdout, /"hook_event_name":"Stop"/);
    assert.ok(existsSync(path.join(real.ws, 'inside')), 'the workspace is writable');
    assert.ok(!existsSync(path.join(real.outside, 'escaped')), 'outside the workspace is not');
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});

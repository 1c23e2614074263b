import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnvironment } from '../../../extension/core/security/child-env';
import { withGitSafety } from '../../../extension/core/security/git-safety';

test('git safety settings are appended to the GIT_CONFIG_COUNT list the environment already has', () => {
  const env = withGitSafety({ GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'me' });
  assert.equal(env.GIT_CONFIG_KEY_0, 'user.name');
  assert.equal(env.GIT_CONFIG_KEY_1, 'safe.bareRepository');
  assert.equal(env.GIT_CONFIG_VALUE_1, 'explicit');
  assert.equal(env.GIT_CONFIG_COUNT, '5');
  assert.equal(childEnvironment({ PATH: '/bin' }, { apiKeyEnvNames: [] }).env.GIT_CONFIG_KEY_1, 'core.fsmonitor');
});

const git = spawnSync('git', ['--version']).status === 0;

test('a command the agent runs does not use a bare repository embedded in the workspace', { skip: !git }, () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'sextant-git-')));
  const embedded = join(root, 'vendor', 'x');
  assert.equal(spawnSync('git', ['init', '-q', '--bare', embedded]).status, 0);
  const run = (env: NodeJS.ProcessEnv) =>
    spawnSync('git', ['rev-parse', '--git-dir'], { cwd: embedded, env, encoding: 'utf8' });
  const plain = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root };
  assert.equal(run(plain).status, 0, 'without the settings git uses the embedded repository');
  const safe = childEnvironment(plain, { apiKeyEnvNames: [] }).env;
  const r = run(safe);
  assert.notEqual(r.status, 0, r.stdout);
  assert.match(r.stderr, /bare repository/);
});

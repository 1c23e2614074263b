// The pure part of the run-later watch: which files, which package.json changes matter, what is an install.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isInstallCommand, isRunLaterName, packageJsonRunsChanged } from '../../../extension/core/sandbox/run-later';

test('run-later names: build files, lint and build configs, test setup; not ordinary sources', () => {
  for (const name of [
    'package.json',
    'Makefile',
    'GNUmakefile',
    'rules.mk',
    'eslint.config.mjs',
    '.eslintrc.json',
    '.eslintrc',
    'prettier.config.js',
    '.prettierrc.yaml',
    'vite.config.ts',
    'jest.config.js',
    'vitest.config.mts',
    'webpack.config.js',
    'babel.config.js',
    'tsconfig.json',
    'tsconfig.build.json',
    'pyproject.toml',
    'setup.py',
    'conftest.py',
    'tox.ini',
    'noxfile.py',
    'build.rs',
  ])
    assert.equal(isRunLaterName(name), true, name);
  for (const name of ['index.js', 'README.md', 'src', 'package-lock.json', 'test.py', 'config.json'])
    assert.equal(isRunLaterName(name), false, name);
});

test('package.json: scripts, bin, lifecycle, tool configs matter; dependencies, metadata, formatting do not', () => {
  const base = { name: 'a', version: '1.0.0', scripts: { test: 'node --test' }, dependencies: {} };
  const text = (o: object, indent = 2) => JSON.stringify(o, null, indent);
  assert.equal(packageJsonRunsChanged(text(base), text(base, 4)), false, 'reformatted');
  assert.equal(packageJsonRunsChanged(text(base), text({ ...base, dependencies: { x: '1' } })), false);
  assert.equal(packageJsonRunsChanged(text(base), text({ ...base, version: '1.0.1' })), false);
  assert.equal(packageJsonRunsChanged(text(base), text({ ...base, scripts: { test: 'x' } })), true);
  assert.equal(
    packageJsonRunsChanged(text(base), text({ ...base, scripts: { ...base.scripts, postinstall: 'x' } })),
    true,
  );
  assert.equal(packageJsonRunsChanged(text(base), text({ ...base, bin: { a: 'x.js' } })), true);
  assert.equal(packageJsonRunsChanged(text(base), text({ ...base, eslintConfig: { plugins: ['x'] } })), true);
  assert.equal(packageJsonRunsChanged(text(base), text({ ...base, packageManager: 'pnpm@9.0.0' })), true);
  assert.equal(packageJsonRunsChanged(text(base), '{ not json'), true, 'unreadable after');
  assert.equal(packageJsonRunsChanged(undefined, text(base)), true, 'created');
});

test('installs: package managers installing, alone; anything beside them is not an install', () => {
  for (const c of [
    'npm install',
    'npm i left-pad',
    'npm ci',
    'npm install --save-dev jest',
    'yarn',
    'yarn add react',
    'pnpm add -D vitest',
    'bun install',
    'pip install -r requirements.txt',
    '.venv/bin/pip install requests',
    'python3 -m pip install requests',
    'uv pip install ruff',
    'uv add httpx',
    'poetry add requests',
    'cargo add serde',
    'npm install && pip install -e .',
  ])
    assert.equal(isInstallCommand(c), true, c);
  for (const c of [
    'npm test',
    'npm run build',
    'npm install x && sed -i s/a/b/ package.json',
    'npm install $(cat list)',
    'echo npm install',
    'npm exec install',
    'make install',
    './npm install',
    'node_modules/.bin/yarn add x',
    'pip download x',
    'node -e "require(\'fs\')"',
    '',
  ])
    assert.equal(isInstallCommand(c), false, c);
});

// What a command the agent runs may see of the extension host's environment.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { childEnvironment, isSecretVariable } from '../../../extension/core/security/child-env';

const HOST_ENV = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/u',
  LANG: 'C.UTF-8',
  PWD: '/work',
  TERM: 'xterm',
  NODE_ENV: 'development',
  OPENAI_API_KEY: 'sk-test-1234567890abcdef',
  MINIMAX_API_KEY: 'eyJhbGciOi.eyJzdWIiOi.sig',
  WORK_LLM: 'custom-key-value-123',
  GITHUB_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
  AWS_ACCESS_KEY_ID: 'AKIAABCDEFGHIJKLMNOP',
  AWS_SECRET_ACCESS_KEY: 'abc/def',
  AWS_SESSION_TOKEN: 'tok',
  AWS_REGION: 'eu-west-1',
  AZURE_CLIENT_SECRET: 'x',
  GOOGLE_APPLICATION_CREDENTIALS: '/home/u/gcp.json',
  PGPASSWORD: 'pw',
  NPM_TOKEN: 'npm_x',
  DATABASE_URL: 'postgres://app:hunter2@db.internal/app',
  PLAIN_URL: 'https://example.com/path',
  SSH_AUTH_SOCK: '/tmp/ssh-agent.sock',
  EDITOR: 'vim',
};

describe('child environment', () => {
  const { env, removed } = childEnvironment(HOST_ENV, { apiKeyEnvNames: ['WORK_LLM', 'MINIMAX_API_KEY'] });

  it('drops provider key variables (apiKeyEnv), secret-named variables and credential URLs', () => {
    for (const name of [
      'OPENAI_API_KEY',
      'MINIMAX_API_KEY',
      'WORK_LLM',
      'GITHUB_TOKEN',
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'AWS_SESSION_TOKEN',
      'AZURE_CLIENT_SECRET',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'PGPASSWORD',
      'NPM_TOKEN',
      'DATABASE_URL',
      'SSH_AUTH_SOCK',
    ]) {
      assert.equal(env[name], undefined, `${name} reached the command`);
      assert.ok(removed.includes(name), `${name} not reported as removed`);
    }
  });

  it('keeps what ordinary commands need', () => {
    for (const name of ['PATH', 'HOME', 'LANG', 'PWD', 'TERM', 'NODE_ENV', 'AWS_REGION', 'PLAIN_URL', 'EDITOR']) {
      assert.equal(env[name], HOST_ENV[name as keyof typeof HOST_ENV], name);
    }
  });

  it('no value of a removed variable appears anywhere in what is kept', () => {
    const kept = JSON.stringify(env);
    for (const name of removed) {
      const value = HOST_ENV[name as keyof typeof HOST_ENV];
      // Short values ('x', 'pw') occur inside ordinary words; the real keys are long.
      if (value.length >= 8) assert.ok(!kept.includes(value), name);
    }
  });

  it('passes a name through when the user lists it', () => {
    const r = childEnvironment(HOST_ENV, { apiKeyEnvNames: ['WORK_LLM'], passThrough: ['npm_token'] });
    assert.equal(r.env.NPM_TOKEN, 'npm_x');
    assert.equal(r.env.WORK_LLM, undefined);
  });

  it('judges names case-insensitively and by value', () => {
    assert.ok(isSecretVariable('my_api_key', 'x'));
    assert.ok(isSecretVariable('HTTPS_PROXY', 'http://user:pass@proxy:8080'));
    assert.ok(!isSecretVariable('HTTPS_PROXY', 'http://proxy:8080'));
    assert.ok(!isSecretVariable('KEYBOARD_LAYOUT', 'us'));
    assert.ok(!isSecretVariable('TOKENIZERS_PARALLELISM', 'false'));
  });

  it('catches keys by the name patterns *_KEY, *_TOKEN, *_PAT, *SECRET* and credentials in URLs', () => {
    for (const name of [
      'OPENAI_KEY',
      'AZURE_OPENAI_KEY',
      'GH_PAT',
      'STRIPE_KEY',
      'SIGNING_KEYS',
      'DB_PW',
      'MYSECRETVALUE',
    ]) {
      assert.ok(isSecretVariable(name, 'value'), name);
    }
    assert.ok(isSecretVariable('REDIS_URL', 'redis://:hunter2@cache:6379'));
    assert.ok(isSecretVariable('REMOTE', 'https://ghp_abcdefghijklmnop0123@github.com/o/r.git'));
    for (const name of ['PWD', 'OLDPWD', 'KEYMAP', 'PATH', 'PATHEXT', 'XAUTHORITY', 'COMPOSE_PROJECT']) {
      assert.ok(!isSecretVariable(name, '/somewhere'), name);
    }
    assert.ok(!isSecretVariable('GIT_REMOTE', 'ssh://git@github.com/o/r.git'));
  });

  it('drops secrets with unusual names, and key-shaped values under bland names', () => {
    const host = {
      npm_config__authToken: 'npm_abcdefghijklmnopqrstuvwxyz0123456789',
      'npm_config_//registry.example.com/:_auth': 'dXNlcjpwYXNz',
      NGROK_AUTHTOKEN: '2abcDEFghiJKLmnoPQRstuVWXyz_0123456789',
      CI_JOB_JWT: 'header.payload.signature',
      SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T000/B000/XXXXXXXX',
      GPG_PASSPHRASE: 'correct horse battery staple',
      SIGNING_KEY_PASSPHRASE: 'hunter22',
      OPENAI: 'sk-proj-abcdefghijklmnopqrstuvwxyz012345',
      MY_SETTING: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      DEPLOY: 'xoxb-1234567890-abcdefghij',
      HF: 'hf_abcdefghijklmnopqrstuvwxyz01234567',
      AWS_ID: 'AKIAABCDEFGHIJKLMNOP',
      PRIVATE: '-----BEGIN OPENSSH PRIVATE KEY-----\nabc\n-----END OPENSSH PRIVATE KEY-----',
      PATH: '/usr/bin',
      HOTKEY: 'ctrl+k',
      TOKENIZERS_PARALLELISM: 'false',
      npm_config_cache: '/home/u/.npm',
      npm_config_registry: 'https://registry.npmjs.org/',
    };
    const r = childEnvironment(host, { apiKeyEnvNames: [] });
    const dropped = Object.keys(host).filter(
      (n) => !['PATH', 'HOTKEY', 'TOKENIZERS_PARALLELISM', 'npm_config_cache', 'npm_config_registry'].includes(n),
    );
    for (const name of dropped) {
      assert.equal(r.env[name], undefined, `${name} reached the command`);
      assert.ok(r.removed.includes(name), `${name} not reported as removed`);
    }
    for (const name of ['PATH', 'HOTKEY', 'TOKENIZERS_PARALLELISM', 'npm_config_cache', 'npm_config_registry'])
      assert.equal(r.env[name], host[name as keyof typeof host], name);
  });
});

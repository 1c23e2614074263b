// Permission rules for MCP tools, which come and go with their servers: by full name, by server
// (`mcp__<server>__*` and `mcp__<server>`), deny over allow, read-only tools run, others ask.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPolicy, decide, suggestRule } from '../../../extension/core/permissions';

const policy = (user: { allow?: string[]; ask?: string[]; deny?: string[] }) =>
  createPolicy({ user, workspaceFolders: ['/ws'], home: '/home/u', tools: [] });
const mcp = (tool: string, kind: 'read' | 'execute' = 'execute') => ({ tool, kind, input: { x: 1 } });

test('MCP rules are accepted without knowing the tool, and match by name and by server', () => {
  const p = policy({
    allow: ['mcp__github__*'],
    deny: ['mcp__github__delete_repo'],
    ask: ['mcp__db'],
  });
  assert.deepEqual(p.problems, []);
  assert.equal(decide(mcp('mcp__github__create_issue'), p).decision, 'allow');
  assert.equal(decide(mcp('mcp__github__delete_repo'), p).decision, 'deny');
  assert.equal(decide(mcp('mcp__db__query', 'read'), p).decision, 'ask');
  assert.equal(decide(mcp('mcp__other__tool'), p).decision, 'ask');
  assert.equal(decide(mcp('mcp__other__look', 'read'), p).decision, 'allow');
  // A server named like a prefix of another is not covered by it.
  assert.equal(decide(mcp('mcp__github2__x'), p).decision, 'ask');
  assert.equal(suggestRule(mcp('mcp__other__tool'), p), 'mcp__other__tool');
});

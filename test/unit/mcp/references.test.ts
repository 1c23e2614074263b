// Prompts as slash commands and resources as @ references, against the stdio test server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expandMcpReferences, promptArgs } from '../../../extension/core/mcp/message-references';
import { createManager, none, source, stdioServer, tempDir } from './harness';

test('/mcp__<server>__<prompt> becomes the prompt; @<server>:<uri> attaches the resource', async () => {
  const { manager } = createManager();
  manager.setSources({ workspace: none, user: source({ demo: await stdioServer(tempDir()) }) });
  await manager.prepare();
  const src = {
    names: () => manager.names(),
    promptArguments: (s: string, p: string) => manager.promptArguments(s, p),
    getPrompt: (s: string, p: string, a: Record<string, string>) => manager.getPrompt(s, p, a),
    readResource: (s: string, u: string) => manager.readResource(s, u),
  };
  assert.deepEqual(await expandMcpReferences('/mcp__demo__greet Ada Lovelace', src), {
    text: 'Say hello to Ada Lovelace.',
    images: [],
    problems: [],
  });
  const withResource = await expandMcpReferences('Summarise @demo:note://readme please', src);
  assert.match(withResource.text, /^Summarise @demo:note:\/\/readme please\n\nResources the user attached/);
  assert.match(withResource.text, /<mcp-resource server="demo" uri="note:\/\/readme">\nRead me first\.\n/);
  const unknown = await expandMcpReferences('/mcp__demo__nope x', src);
  assert.equal(unknown.text, '/mcp__demo__nope x', 'kept as typed');
  assert.match(unknown.problems[0], /no prompt "nope"/);
  const email = await expandMcpReferences('mail me at someone@example.com:25', src);
  assert.deepEqual(email, { text: 'mail me at someone@example.com:25', problems: [] });
  await manager.dispose();
});

test('prompt arguments in order, the last taking the rest', () => {
  assert.deepEqual(promptArgs(['a', 'b'], ' x  y z '), { a: 'x', b: 'y z' });
  assert.deepEqual(promptArgs(['a', 'b'], ''), {});
  assert.deepEqual(promptArgs([], 'ignored'), {});
});

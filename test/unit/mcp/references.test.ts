// Prompts as slash commands and resources as @ references, against the stdio test server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  expandMcpReferences,
  promptArgs,
  promptChatImages,
  promptText,
} from '../../../extension/core/mcp/message-references';
import type { McpPromptMessage } from '../../../extension/core/mcp/session-port';
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
  assert.deepEqual(email, { text: 'mail me at someone@example.com:25', images: [], problems: [] });
  await manager.dispose();
});

test('prompt arguments in order, the last taking the rest', () => {
  assert.deepEqual(promptArgs(['a', 'b'], ' x  y z '), { a: 'x', b: 'y z' });
  assert.deepEqual(promptArgs(['a', 'b'], ''), {});
  assert.deepEqual(promptArgs([], 'ignored'), {});
});

test("a prompt's messages keep their roles and images", async () => {
  const png = 'iVBORw0KGgo=';
  const messages: McpPromptMessage[] = [
    { role: 'user', content: { type: 'text', text: 'What is in this picture?' } },
    { role: 'user', content: { type: 'image', data: png, mimeType: 'image/png' } },
    { role: 'assistant', content: { type: 'text', text: 'A cat.' } },
    { role: 'user', content: { type: 'text', text: 'And its colour?' } },
  ];
  const src = {
    names: () => ['demo'],
    promptArguments: () => [],
    getPrompt: async () => messages,
    readResource: async () => [],
  };
  const r = await expandMcpReferences('/mcp__demo__picture', src);
  assert.deepEqual(r.problems, []);
  assert.deepEqual(r.images, [{ mimeType: 'image/png', data: png }]);
  assert.match(r.text, /continue it as the assistant/);
  assert.match(r.text, /<prompt-message role="user">\nWhat is in this picture\?\n<\/prompt-message>/);
  assert.match(r.text, /<prompt-message role="user">\n\[image 1 \(image\/png\): attached to this message\]/);
  assert.match(r.text, /<prompt-message role="assistant">\nA cat\.\n<\/prompt-message>/);
  // Only user text: the prompt's text as is.
  assert.equal(promptText([messages[0], messages[3]]).text, 'What is in this picture?\n\nAnd its colour?');
  // As the message's images: the types the models take, the rest named.
  const sent = promptChatImages([
    { mimeType: 'image/png', data: png },
    { mimeType: 'image/svg+xml', data: 'PHN2Zz4=' },
  ]);
  assert.deepEqual(sent.images, [{ name: 'prompt image 1', mediaType: 'image/png', dataBase64: png }]);
  assert.match(sent.problems[0], /image 2 is image\/svg\+xml, which is not sent/);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findViolations, importsOf, readSourceTree } from './layers';

// The runner starts tests in the repository root.
const root = process.cwd();

test('the source tree keeps the layer rules', () => {
  const files = readSourceTree(root, ['extension', 'webview', 'bench', 'scripts', 'test']);
  assert.ok(
    files.some((f) => f.path === 'extension/protocol/messages.ts'),
    'the walker found the sources',
  );
  assert.ok(files.length > 20);
  const violations = findViolations(files);
  assert.deepEqual(violations, [], violations.map((v) => `${v.file}: ${v.specifier} — ${v.rule}`).join('\n'));
});

test('each planted violation is caught', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['extension/core/agent/x.ts', "import * as vscode from 'vscode';", /never imports 'vscode'/],
    ['extension/core/agent/x.ts', "const v = require('vscode');", /never imports 'vscode'/],
    ['extension/core/tools/x.ts', "import { a } from '../../vscode/runtime';", /host or the webview/],
    ['extension/core/store/x.ts', "import type { ChatController } from '../agent/controller';", /store never imports/],
    ['extension/core/store/x.ts', "import { generateTitle } from '../agent/title';", /store never imports/],
    ['extension/core/research/loop/x.ts', "import { AsyncQueue } from '../../agent/async-queue';", /research never/],
    ['extension/core/research/x.ts', "import type { ChatController } from '../agent/controller';", /research never/],
    ['extension/core/tools/x.ts', "import { SEARCH_APIS } from '../research/search/catalog';", /tools never/],
    ['extension/core/tools/util/x.ts', "import type { Source } from '../../research/types';", /tools never/],
    ['extension/core/usage/x.ts', "import { runTurn } from '../agent/turn';", /never import agent or research/],
    ['extension/core/web/x.ts', "import { runResearch } from '../research/loop/research-run';", /never import agent/],
    ['extension/core/permissions/x.ts', "import { globSource } from '../tools/util/globs';", /permissions never/],
    ['extension/core/permissions/shell/x.ts', "import type { AnyTool } from '../../tools/types';", /permissions never/],
    ['extension/protocol/x.ts', "import { readFile } from 'node:fs';", /only zod/],
    ['extension/protocol/x.ts', "import type { Tool } from '../core/tools/types';", /only zod/],
    [
      'webview/x.ts',
      "import { ChatController } from '../extension/core/agent/controller';",
      /only extension\/protocol/,
    ],
    ['webview/x.ts', "import { x } from 'openai';", /UI libraries/],
    ['extension/vscode/x.ts', "import { startFakeLlm } from '../../test/fixtures/fake-llm';", /outside test/],
    ['scripts/x.mjs', "const t = await import('../test/fixtures/fake-llm.js');", /outside test/],
    ['bench/x.mjs', "import { harness } from '../test/unit/agent/harness';", /outside test/],
    ['extension/core/x.ts', 'export default function f() {}', /no default exports/],
    ['extension/platform/sandbox/x.ts', "import * as vscode from 'vscode';", /platform never imports 'vscode'/],
    ['extension/platform/sandbox/x.ts', "import { a } from '../../vscode/runtime';", /platform never imports the host/],
    ['extension/engine/x.ts', "import * as vscode from 'vscode';", /engine never imports 'vscode'/],
    ['extension/engine/x.ts', "import { x } from '../vscode/settings';", /engine never imports the VS Code host/],
    ['extension/cli/x.ts', "import { window } from 'vscode';", /cli never imports 'vscode'/],
    [
      'extension/core/agent/x.ts',
      "import { createEngine } from '../../engine/engine';",
      /core never imports the engine/,
    ],
    ['extension/engine/x.ts', "import { main } from '../cli/main';", /engine never imports the command line/],
    [
      'extension/core/tools/x.ts',
      "import { createSandbox } from '../../platform/sandbox/create-sandbox';",
      /core never imports extension\/platform/,
    ],
  ];
  for (const [path, text, rule] of cases) {
    const v = findViolations([{ path, text }]);
    assert.equal(v.length, 1, `${path}: ${text} should be one violation, got ${JSON.stringify(v)}`);
    assert.match(v[0].rule, rule);
  }
});

test('allowed imports are not flagged', () => {
  const ok = [
    { path: 'extension/protocol/a.ts', text: "import { z } from 'zod';\nimport { B } from './b';" },
    {
      path: 'extension/core/a.ts',
      text: "import { spawn } from 'node:child_process';\nimport type { Inbound } from '../protocol';",
    },
    {
      path: 'webview/a.ts',
      text:
        "import { LitElement } from 'lit';\nimport { OutboundSchema } from '../extension/protocol';\nimport " +
        "'@vscode-elements/elements/dist/vscode-button';",
    },
    { path: 'test/unit/a.test.ts', text: "import { startFakeLlm } from '../fixtures/fake-llm';" },
    { path: 'extension/core/store/a.ts', text: "import type { JournalRecord, Logger } from '../ports';" },
    { path: 'extension/core/research/a.ts', text: "import { costOf } from '../usage/cost';" },
    { path: 'extension/core/tools/a.ts', text: "import type { PageFetcher } from '../web/fetch/page-fetcher';" },
    { path: 'extension/core/agent/a.ts', text: "import type { ResearchHost } from '../research/host';" },
    { path: 'extension/platform/sandbox/a.ts', text: "import { planBox } from '../../core/sandbox/box-plan';" },
    { path: 'bench/lib/a.ts', text: "import { startFakeLlm } from '../../test/fixtures/fake-llm';" },
    {
      path: 'extension/core/b.ts',
      text: "// import * as vscode from 'vscode' — only in a comment\nexport const x = 1;",
    },
  ];
  assert.deepEqual(findViolations(ok), []);
});

test('import parsing sees every form', () => {
  const text = [
    "import a from 'a';",
    "import { b } from 'b';",
    "import type { c } from 'c';",
    "export * from 'd';",
    "export { e } from 'e';",
    "import 'f';",
    "const g = require('g');",
    "const h = await import('h');",
  ].join('\n');
  assert.deepEqual(importsOf(text), ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
});

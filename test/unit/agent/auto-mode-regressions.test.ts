// A reviewer that says "allow" to everything, in auto mode with a working box, against the policy's
// regression sets: issue 20's commands, the differential corpus's "ask" commands (those the analysis
// has a finding for), and issue 35's. None of those the floor holds runs, and the reviewer is not even
// asked about them. The only ones it is asked about are issue 35's commands that ask merely because no
// rule covers them (`lsof` under `bash(ls*)`): that is the question auto mode hands the reviewer —
// with the command in full, checked here — and the one defaultMode allow would answer unasked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeCommand } from '../../../extension/core/permissions';
import { BOXED, floorEnv, judgeInAutoMode } from '../../fixtures/auto-review-judge';
import { DIFFERENTIAL_CORPUS } from '../../fixtures/bash-differential-corpus';
import { PERMISSION_CASES } from '../../fixtures/permission-cases';
import {
  ISSUE_20_CASES,
  ISSUE_20_RULES,
  ISSUE_35_BOUNDARY,
  ISSUE_35_WRITES,
} from '../../fixtures/permission-regressions';

const bash = (command: string) => ({ tool: 'bash', kind: 'execute' as const, input: { command }, box: BOXED });

test('auto mode, allow-all reviewer: no issue 20 case runs, and none is put to the reviewer', async () => {
  const env = floorEnv();
  for (const [name, command] of ISSUE_20_CASES) {
    const { j, reviews } = await judgeInAutoMode(env, { ...bash(command), rules: ISSUE_20_RULES }, 'auto', 'allow');
    assert.notEqual(j.decision, 'allow', `${name}: ${JSON.stringify(j)}`);
    assert.equal(reviews, 0, name);
  }
});

/** The tree-sitter-bash corpus the differential test also reads, when it is there. */
function sharedCorpus(): string[] {
  const dir = join(process.cwd(), '..', 'shared', 'testdata', 'bash-corpus');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith('.txt'))
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split(/^={3,}\n[^\n]*\n={3,}\n/m)
        .slice(1)
        .map((part) => part.split(/\n-{3,}\n/)[0].trim())
        .filter(Boolean),
    );
}

test("auto mode, allow-all reviewer: none of the differential corpus's ask commands runs", async (t) => {
  const env = floorEnv();
  const table = PERMISSION_CASES.filter((c) => c.call.tool === 'bash').map((c) => String(c.call.input.command));
  const corpus = [...new Set([...table, ...DIFFERENTIAL_CORPUS, ...sharedCorpus()])];
  let asks = 0;
  for (const command of corpus) {
    if (analyzeCommand(command, { home: env.home, cwd: env.root }).findings.length === 0) continue;
    asks++;
    const { j, reviews } = await judgeInAutoMode(env, bash(command), 'auto', 'allow');
    assert.notEqual(j.decision, 'allow', `${JSON.stringify(command)}: ${JSON.stringify(j)}`);
    assert.equal(reviews, 0, JSON.stringify(command));
  }
  t.diagnostic(`${asks} ask commands of ${corpus.length}`);
  assert.ok(asks >= 100, `only ${asks} ask commands`);
});

test('auto mode, allow-all reviewer: issue 35 held by the floor, or reviewed whole', async (t) => {
  const env = floorEnv();
  const cases = [
    ...ISSUE_35_WRITES.map(([rule, command]) => [rule, command] as const),
    ...ISSUE_35_BOUNDARY.filter(([, , expect]) => expect === 'ask').map(([rule, command]) => [rule, command] as const),
  ];
  let held = 0;
  let reviewed = 0;
  for (const [rule, command] of cases) {
    // The sets name workspace paths relatively; `~` and `/tmp` stay what they are.
    const rules = { allow: [rule] };
    const ask = await judgeInAutoMode(env, { ...bash(command), rules }, 'ask', 'allow');
    assert.equal(ask.j.decision, 'ask', `${command} asks in ask mode: ${JSON.stringify(ask.j)}`);
    const { j, reviewer } = await judgeInAutoMode(env, { ...bash(command), rules }, 'auto', 'allow');
    if (ask.j.source !== 'default') {
      held++;
      assert.equal(j.decision, 'ask', `${command}: ${JSON.stringify(j)}`);
      assert.equal(reviewer.requests.length, 0, command);
      continue;
    }
    reviewed++;
    assert.equal(reviewer.requests.length, 1, command);
    const sent = JSON.stringify(reviewer.requests[0].messages);
    assert.ok(sent.includes(JSON.stringify(JSON.stringify(command)).slice(1, -1)), `${command} is sent whole`);
  }
  t.diagnostic(`issue 35 asks: ${held} held by the floor, ${reviewed} put to the reviewer (no rule covers them)`);
  assert.ok(held >= 18, `held ${held}`);
});

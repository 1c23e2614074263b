// .sextant/settings.json: the workspace may only tighten permissions; a malformed file is reported
// at its line and column and ignored whole. Also the JSONC reader underneath.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lineColumn, parseJsonc } from '../../../extension/core/config/jsonc';
import { parseWorkspaceSettings } from '../../../extension/core/config/workspace-settings';
import { quotedName, withoutLinks } from '../../../extension/core/security/plain-text';

describe('parseWorkspaceSettings', () => {
  test('a good file: ask and deny rules and a default mode, with comments and a trailing comma', () => {
    const text = `{
  // Keep the agent away from deployment scripts.
  "permissions": {
    "ask": ["bash(git push*)"],
    /* nothing destructive */
    "deny": ["bash(rm -rf*)", "write_file(deploy/**)"],
    "defaultMode": "acceptEdits",
  },
}`;
    assert.deepEqual(parseWorkspaceSettings(text), {
      permissions: {
        ask: ['bash(git push*)'],
        deny: ['bash(rm -rf*)', 'write_file(deploy/**)'],
        defaultMode: 'acceptEdits',
      },
      problems: [],
    });
  });

  test('an empty file, or one without permissions, changes nothing and reports nothing', () => {
    assert.deepEqual(parseWorkspaceSettings(''), { problems: [] });
    assert.deepEqual(parseWorkspaceSettings('  \n'), { problems: [] });
    assert.deepEqual(parseWorkspaceSettings('{}'), { problems: [] });
    assert.deepEqual(parseWorkspaceSettings('{"permissions": {}}'), {
      permissions: { ask: [], deny: [] },
      problems: [],
    });
  });

  test('bad JSON is reported with its line and column, and the file is ignored', () => {
    const text = '{\n  "permissions": {\n    "deny": ["bash(rm*)"\n  }\n}\n';
    const r = parseWorkspaceSettings(text);
    assert.equal(r.permissions, undefined);
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0], /^\.sextant\/settings\.json:4:3: not valid JSON \(expected "," or "]"/);
    assert.match(r.problems[0], /the file was ignored\.$/);
  });

  test('other JSON mistakes: missing colon, unterminated string or comment, trailing text', () => {
    const cases: Array<[string, RegExp]> = [
      ['{"permissions" {}}', /:1:16: not valid JSON \(expected ":" after "permissions"\)/],
      ['{\n"permissions": {"deny": ["x]}}', /:2:26: not valid JSON \(a string is never closed\)/],
      ['{} /* open', /:1:4: not valid JSON \(a \/\* comment is never closed\)/],
      ['{}\n{}', /:2:1: not valid JSON \(unexpected text after the end of the value\)/],
      ["{'permissions': {}}", /:1:2: not valid JSON \(expected a property name in double quotes or "}"\)/],
      ['{"permissions": tru}', /:1:17: not valid JSON \(unexpected "t"\)/],
    ];
    for (const [text, expected] of cases) {
      const r = parseWorkspaceSettings(text);
      assert.equal(r.permissions, undefined, text);
      assert.match(r.problems.join('\n'), expected, text);
    }
  });

  test('the wrong shape is reported at the offending value, and the file is ignored whole', () => {
    const text = '{\n  "permissions": {\n    "ask": ["bash(npm publish*)"],\n    "deny": "bash(rm*)"\n  }\n}';
    const r = parseWorkspaceSettings(text);
    assert.equal(r.permissions, undefined, 'the good ask list is not used either');
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0], /^\.sextant\/settings\.json:4:13: "permissions\.deny" /);
    assert.match(r.problems[0], /the file was ignored\.$/);

    const badMode = parseWorkspaceSettings('{"permissions": {"defaultMode": "yolo"}}', 'ws/.sextant/settings.json');
    assert.equal(badMode.permissions, undefined);
    assert.match(badMode.problems[0], /^ws\/\.sextant\/settings\.json:1:33: "permissions\.defaultMode" /);

    const badRule = parseWorkspaceSettings('{"permissions": {"deny": ["ok", 42]}}');
    assert.match(badRule.problems[0], /:1:33: "permissions\.deny\[1\]" /);

    const notObject = parseWorkspaceSettings('[1, 2]');
    assert.equal(notObject.permissions, undefined);
    assert.match(notObject.problems[0], /^\.sextant\/settings\.json:1:1: /);
  });

  test('an allow list is reported as ignored; the rest of the file still applies', () => {
    const text = '{\n  "permissions": {\n    "allow": ["bash(*)"],\n    "deny": ["web_fetch"]\n  }\n}';
    const r = parseWorkspaceSettings(text);
    assert.deepEqual(r.permissions, { ask: [], deny: ['web_fetch'] });
    assert.equal(r.problems.length, 1);
    assert.match(r.problems[0], /^\.sextant\/settings\.json:3:14: "permissions\.allow" was ignored/);
    assert.match(r.problems[0], /sextant\.permissions\.allow/);
  });

  test('unknown keys are reported and skipped', () => {
    const r = parseWorkspaceSettings('{"permission": {"allow": ["*"]}, "permissions": {"dney": ["x"], "deny": ["y"]}}');
    assert.deepEqual(r.permissions, { ask: [], deny: ['y'] });
    assert.deepEqual(
      r.problems.map((p) => /unknown setting "([^"]+)"/.exec(p)?.[1]),
      ['permission', 'permissions.dney'],
    );
  });

  test('a "__proto__" key is plain data', () => {
    const r = parseWorkspaceSettings('{"__proto__": {"permissions": {"allow": ["*"]}}, "permissions": {"ask": []}}');
    assert.deepEqual(r.permissions, { ask: [], deny: [] });
    assert.equal(({} as Record<string, unknown>).permissions, undefined);
  });
});

describe('parseJsonc', () => {
  test('reads what JSON.parse reads', () => {
    for (const text of ['{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"]}', '"s"', '0', '[]', '{"a":{"b":{}}}']) {
      const r = parseJsonc(text);
      assert.ok(r.ok, text);
      assert.deepEqual(r.ok && r.value, JSON.parse(text));
    }
  });

  test('knows where every value starts', () => {
    const r = parseJsonc('{\n "a": [10, {"b": true}]\n}');
    assert.ok(r.ok);
    if (!r.ok) return;
    assert.equal(r.offsetOf([]), 0);
    assert.deepEqual(lineColumn('{\n "a": [10, {"b": true}]\n}', r.offsetOf(['a', 1, 'b']) ?? -1), {
      line: 2,
      column: 18,
    });
    assert.equal(r.offsetOf(['missing']), undefined);
  });

  test('deep nesting is an error, not a stack overflow', () => {
    const r = parseJsonc('['.repeat(100_000));
    assert.equal(r.ok, false);
    assert.match(!r.ok ? r.message : '', /nested too deeply/);
  });

  test('lineColumn counts from 1 and handles CRLF', () => {
    assert.deepEqual(lineColumn('ab\r\ncd', 5), { line: 2, column: 2 });
    assert.deepEqual(lineColumn('', 0), { line: 1, column: 1 });
  });
});

describe('workspace settings text in notifications', () => {
  // VS Code's notification link syntax (vs/base/common/linkedText.ts): [label](http…|command:…|file:…).
  const LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

  test('a key name shaped as a command link reaches the notification as inert text', () => {
    const key = '[Open a terminal](command:workbench.action.terminal.new)';
    const r = parseWorkspaceSettings(JSON.stringify({ [key]: 1, permissions: { [key]: [] } }));
    assert.equal(r.problems.length, 2);
    for (const p of r.problems) {
      assert.match(p, /Open a terminal/, 'the name is still shown');
      assert.doesNotMatch(withoutLinks(`Sextant: ${p}`), LINK);
    }
  });

  test('a zod problem quoting a key path is inert too, and a long name is cut', () => {
    const key = `[x](command:evil)${'a'.repeat(200)}`;
    const r = parseWorkspaceSettings(JSON.stringify({ permissions: { deny: { [key]: 1 } } }));
    assert.equal(r.problems.length, 1);
    assert.doesNotMatch(withoutLinks(r.problems[0]), LINK);
    assert.equal(quotedName('a'.repeat(200)).length, 83);
  });

  test('withoutLinks breaks every link form, with or without spaces', () => {
    for (const t of ['[a](command:x)', '[a] (command:x)', '[a](https://e.com "t")', '[a](file:///etc/passwd)']) {
      assert.doesNotMatch(withoutLinks(t), LINK, t);
    }
  });
});

// /review's answer read back as findings for the editor (comments on the lines, Problems entries):
// the form prompts/review.md asks for, plain `path:line` too; lines in another form, absolute paths
// and paths that leave the workspace are skipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyFixPrompt, parseReviewFindings } from '../../../extension/core/git';

test('findings from the review answer, with their path, line, severity and text', () => {
  const answer = [
    'The reviewer found two problems:',
    '',
    '- **high** [src/auth.ts:12](src/auth.ts#L12) — the token is compared with ==; use a constant-time compare.',
    '- **Low** `src/util.ts:3` – unused import of fs; remove it.',
    '1. **medium** [lib/a b.ts:7-9](lib/a%20b.ts#L7) - no error handling; wrap in try.',
    '- **high** [/etc/passwd:1](/etc/passwd#L1) — absolute: skipped',
    '- **high** [../x.ts:1](../x.ts#L1) — outside: skipped',
    '- something else entirely',
  ].join('\n');
  assert.deepEqual(parseReviewFindings(answer), [
    {
      path: 'src/auth.ts',
      line: 12,
      severity: 'high',
      message: 'the token is compared with ==; use a constant-time compare.',
    },
    { path: 'src/util.ts', line: 3, severity: 'low', message: 'unused import of fs; remove it.' },
    { path: 'lib/a b.ts', line: 7, severity: 'medium', message: 'no error handling; wrap in try.' },
  ]);
  const f = parseReviewFindings(answer)[0];
  assert.ok(f);
  assert.match(applyFixPrompt(f), /src\/auth\.ts at line 12/);
});

// Permission decision time per tool call: decide() (policy + our shell parser for bash) over the
// unit tests' case table, each case many times, policies compiled once as the agent loop does.
import {
  analyzeCommand,
  createPolicy,
  decide,
  type PermissionCall,
  type Policy,
} from '../../extension/core/permissions';
import { configFor, HOME, PERMISSION_CASES, WS } from '../../test/fixtures/permission-cases';

const ITERATIONS = Number(process.env.PERMISSIONS_ITERATIONS ?? 2000);

const pct = (xs: Float64Array, p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;

function row(label: string, samples: number[]) {
  const xs = Float64Array.from(samples).sort();
  console.log(
    `${label.padEnd(38)} ${String(xs.length).padStart(8)}   ${us(pct(xs, 0.5)).padStart(9)}   ` +
      `${us(pct(xs, 0.99)).padStart(9)}   ${us(xs[xs.length - 1]).padStart(10)}`,
  );
}

/** bash, a file tool (judged by path), or anything else (web, todo_write, kill_shell, …). */
function groupOf(call: PermissionCall): 'bash' | 'path' | 'other' {
  if (call.tool === 'bash') return 'bash';
  const byPath = call.realPath || ['file_path', 'notebook_path', 'path'].some((k) => k in call.input);
  return byPath || ['grep', 'glob', 'ls'].includes(call.tool) ? 'path' : 'other';
}

function main() {
  const policies = new Map<string, Policy>();
  const compileMs: number[] = [];
  const cases = PERMISSION_CASES.map((c) => {
    const key = JSON.stringify(c.context);
    let policy = policies.get(key);
    if (!policy) {
      const t = performance.now();
      policy = createPolicy(configFor(c.context));
      compileMs.push(performance.now() - t);
      policies.set(key, policy);
    }
    return { call: c.call, policy, group: groupOf(c.call) };
  });
  // A long command line: 40 pipelines with substitutions, quoted separators and redirections (≈ 3 KB).
  const long = Array.from(
    { length: 40 },
    (_, i) => `npm test -- --grep "case ${i}; a && b" 2>&1 | grep -v "$(echo skip${i})" > out${i}.txt`,
  ).join(' && ');
  const longPolicy = createPolicy(configFor({ allow: ['bash(npm test*)', 'bash(grep *)', 'bash(echo *)'] }));
  const longPieces = analyzeCommand(long, { home: HOME, cwd: WS }).pieces.length;

  const first: number[] = [];
  for (const c of cases) {
    const t = performance.now();
    decide(c.call, c.policy);
    first.push(performance.now() - t);
  }
  const by: Record<string, number[]> = { all: [], bash: [], path: [], other: [] };
  const longMs: number[] = [];
  const parseMs: number[] = [];
  for (let n = 0; n < ITERATIONS; n++) {
    for (const c of cases) {
      const t = performance.now();
      decide(c.call, c.policy);
      const dt = performance.now() - t;
      by.all.push(dt);
      by[c.group].push(dt);
    }
    if (n % 10 === 0) {
      let t = performance.now();
      decide({ tool: 'bash', input: { command: long } }, longPolicy);
      longMs.push(performance.now() - t);
      t = performance.now();
      analyzeCommand(long, { home: HOME, cwd: WS });
      parseMs.push(performance.now() - t);
    }
  }

  const title = `${cases.length} cases × ${ITERATIONS} iterations, Node ${process.version}`;
  console.log(`\n## Permission decision per tool call (${title})`);
  const head = ['samples'.padStart(8), 'median'.padStart(9), 'p99'.padStart(9), 'max'.padStart(10)];
  console.log(`${'calls'.padEnd(38)} ${head.join('   ')}`);
  row('all cases', by.all);
  row(`bash (parse + judge, ${cases.filter((c) => c.group === 'bash').length} cases)`, by.bash);
  row(`file tools (${cases.filter((c) => c.group === 'path').length} cases)`, by.path);
  row(`other tools (${cases.filter((c) => c.group === 'other').length} cases)`, by.other);
  row('first call of each case (cold)', first);
  row(`long command (${long.length} chars, ${longPieces} pieces)`, longMs);
  row('  of which analyzeCommand', parseMs);
  row(`createPolicy (${policies.size} settings sets)`, compileMs);
}

main();

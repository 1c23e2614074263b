// npm run bench: builds the production VSIX, then runs every benchmark in turn. Prints figures,
// asserts nothing. Pass names to run a subset: npm run bench -- load webview
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const only = process.argv.slice(2);

const benches = [
  ['load', 'bench/load.mjs', 'bundle sizes, require and activate() time'],
  ['webview', 'bench/webview-stream.mjs', 'webview streaming at 20 and 2,000 messages (headless Chromium)'],
  [
    'cli',
    'bench/cli.mjs',
    'sextant -p: cold process start → first byte at the model; engine overhead per step vs the core turn',
  ],
  ['agent', 'bench/agent-step.mjs', 'agent loop overhead per step (real SDK, fake LLM answering instantly)'],
  [
    'sessions',
    'bench/sessions.mjs',
    '4 chats × 50 tool steps at 200 ms per model call: wall ÷ slowest alone, first use of a fifth chat, idle memory',
  ],
  ['long-run', 'bench/long-run.mjs', '300-step agent run, instant model: harness time per step at the start and end'],
  [
    'real-window',
    'bench/real-window.mjs',
    'the real window (code-server): first use keydown → wire (medians of 5 fresh windows: as the view ' +
      'opens, once ready), ms per step at the start and end of a 150-step run',
  ],
  ['grep', 'bench/grep.mjs', 'grep tool vs raw ripgrep on 50,000 files'],
  ['store', 'bench/store.mjs', 'store: persist one event, snapshot and open at 1/10/100 MB'],
  [
    'history',
    'bench/history.mjs',
    'first use → first request on the wire; History list open and search time at 10, 1,000 and 10,000 sessions',
  ],
  ['history-view', 'bench/history-view.mjs', 'History view: first page painted, paging and scrolling at 1,000/10,000'],
  ['usage', 'bench/usage.mjs', 'Usage view: report (scan + roll-up) and CSV at 1,000 and 10,000 sessions'],
  [
    'memory',
    'bench/memory.mjs',
    'memory and snapshot at 1/10/100 MB of history (1 GB with SEXTANT_BENCH_1GB=1), all-hot layout vs cold sessions',
  ],
  ['permissions', 'bench/permissions.mjs', 'permission decision per tool call (policy + shell parse)'],
  [
    'auto-mode',
    'bench/auto-mode.mjs',
    'prompts shown over a scripted 100-step Agent session: ask mode vs auto mode (fake LLM as model and reviewer)',
  ],
  ['sandbox', 'bench/sandbox.mjs', 'time a boxed command adds (true, node -e 0, git status) and proxy throughput'],
  ['run-later', 'bench/run-later.mjs', 'files that run later: time the watch adds to a boxed command (400 .bin links)'],
  ['checkpoints', 'bench/checkpoints.mjs', 'checkpoint per turn and rewind, 1/10/100 files of 10 KB'],
  [
    'worktrees',
    'bench/worktrees.mjs',
    'worktree per session: creation on a 10,000-file repository; merge back (review, apply, merge) of 100 files',
  ],
  [
    'command-coverage',
    'bench/command-coverage.mjs',
    'rewind coverage of commands: added time per command in a 10,000-file git repository, disk after 100',
  ],
  ['research', 'bench/research.mjs', 'research run at 200 ms per search/fetch: wall vs critical path; citations'],
  [
    'claims',
    'bench/claims.mjs',
    'citation floor on the labelled claim set: true kept, false caught, judge calls saved',
  ],
  ['search', 'bench/search.mjs', 'web search client per search: direct, failover, breaker open (fake APIs)'],
  [
    'telemetry',
    'bench/telemetry.mjs',
    'OpenTelemetry export: request time off vs collector down/up; added time per tool call; activation bundle',
  ],
  ['prefix', 'bench/prefix.mjs', 'prompt prefix stability over a 30-step Agent session, overhead with caching on'],
  ['compaction', 'bench/compaction.mjs', 'compaction time at 50k/160k/800k-token sessions (real SDK, fake LLM)'],
  [
    'subagents',
    'bench/subagents.mjs',
    '4 parallel read-only sub-agents at 300 ms per model call: wall ÷ slowest single; parent context with/without',
  ],
  ['mcp', 'bench/mcp.mjs', 'MCP: added time per tool call over the SDK client alone; time to first tool list (stdio)'],
  [
    'browser',
    'bench/browser.mjs',
    'browser tools on a local page: first snapshot cold and warm, snapshot, screenshot, browser RSS idle',
  ],
];

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  return r.status ?? 1;
}

const packaged = !only.length || only.includes('load');
if (packaged) {
  console.log('# building the production VSIX');
  if (run('npm', ['run', '--silent', 'package']) !== 0) process.exit(1);
}
for (const [name, file, what] of benches) {
  if (only.length && !only.includes(name)) continue;
  if (!existsSync(join(root, file))) {
    console.log(`\n# ${name}: ${file} not present, skipped`);
    continue;
  }
  console.log(`\n# ${name}: ${what}`);
  // The real-window bench packages the VSIX itself unless this run just did.
  const code = run(process.execPath, [file, ...(name === 'real-window' && packaged ? ['--no-package'] : [])]);
  if (code !== 0) console.log(`(${name} exited with ${code})`);
}

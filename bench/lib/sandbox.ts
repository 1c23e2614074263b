// The box's cost: median wall time per command (`true`, `node -e 0`, `git status`) run as bash does
// — unboxed, then boxed as the product does it (each command a bwrap box of its own, started by
// nsenter in its chat's network holder: net-holder.ts), without network and with the proxy bridge,
// then the same through the fallback (a network namespace and, with the bridge, a Node forwarder
// started and waited for per command: what every command paid before the holders) — the launch
// preparation and release included; where the time goes (launch, the holder's one-time start); and
// the proxy's throughput end to end (curl in the box → in-box forwarder → unix socket → host proxy →
// a local HTTP server). Prints figures; asserts nothing.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox } from '../../extension/platform/sandbox/create-sandbox';
import { detectBackend } from '../../extension/platform/sandbox/detect';
import { defaultChildEnv } from '../../extension/core/security/child-env';

const ROUNDS = Number(process.env.SANDBOX_ROUNDS ?? 30);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function runOnce(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout.resume();
    child.stderr.resume();
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

async function main(): Promise<void> {
  const d = detectBackend();
  if (!d.ok || d.backend !== 'bubblewrap') {
    console.log(`sandbox bench skipped: ${d.ok ? `${d.backend} (Linux bench only)` : d.reason}`);
    return;
  }
  console.log(
    `machine: ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}; ${ROUNDS} rounds each`,
  );
  const base = realpathSync(mkdtempSync(join(process.cwd(), 'dist-test', 'bench-sandbox-')));
  const ws = join(base, 'ws');
  mkdirSync(ws);
  for (let i = 0; i < 50; i++) writeFileSync(join(ws, `f${i}.txt`), `file ${i}\n`);
  spawnSync('git', ['init', '-q'], { cwd: ws });
  spawnSync('git', ['add', '.'], { cwd: ws });
  // The environment bash gives commands (the host's, secrets removed): a bare {PATH} makes some bash
  // builds far slower to start (no SHLVL), which would measure the environment, not the box.
  const env = defaultChildEnv();
  const server = createServer((_req, res) => {
    const chunk = Buffer.alloc(256 * 1024);
    let left = 1024; // 256 MB
    const pump = () => {
      while (left > 0) {
        left--;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const box = (allowedHosts: string[], nsenter?: false) =>
    createSandbox({
      settings: () => ({ mode: 'box', allowedHosts, extraWriteRoots: [] }),
      workspaceFolders: () => [ws],
      home: process.env.HOME ?? '/root',
      stateRoot: join(tmpdir(), `sextant-box-bench-${process.pid}`),
      ...(nsenter === false ? { nsenter } : {}),
    });
  const closed = box([]);
  const proxied = box(['localhost']);
  const closedFallback = box([], false);
  const proxiedFallback = box(['localhost'], false);
  let n = 0;
  // The holder's one-time start (a chat's first command), then what one command's launch and release cost.
  {
    const fresh = box(['localhost']);
    const t0 = performance.now();
    const first = await fresh.launch({ command: 'true', cwd: ws, env, sessionId: 'first', callId: 'f' });
    const startMs = performance.now() - t0;
    first.release();
    const prep: number[] = [];
    const rel: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t1 = performance.now();
      const l = await fresh.launch({ command: 'true', cwd: ws, env, sessionId: 'first', callId: `p${i}` });
      prep.push(performance.now() - t1);
      const t2 = performance.now();
      l.release();
      rel.push(performance.now() - t2);
    }
    fresh.dispose();
    console.log(
      `a chat's first command: holder started (with the forwarder) in ${startMs.toFixed(1)} ms, once; then per ` +
        `command: launch ${median(prep).toFixed(2)} ms (plan, stand-in claims), release ${median(rel).toFixed(2)} ms`,
    );
  }
  const boxed = async (sandbox: ReturnType<typeof box>, command: string) => {
    const launch = await sandbox.launch({ command, cwd: ws, env, sessionId: 'bench', callId: `c${++n}` });
    try {
      await runOnce(launch.file, launch.args, ws, launch.env);
    } finally {
      launch.release();
    }
  };
  const time = async (f: () => Promise<void>) => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  console.log('[median ms; (added vs unboxed)]   holder: a chat network kept; per command: the fallback');
  console.log(
    'command      unboxed   holder, no network   holder + proxy bridge' +
      '   per command, no network   per command + bridge',
  );
  const cell = (m: number, base: number, width: number) =>
    `${m.toFixed(1)} (${m - base >= 0 ? '+' : ''}${(m - base).toFixed(1)})`.padStart(width);
  for (const command of ['true', 'node -e 0', 'git status']) {
    const series: number[][] = [[], [], [], [], []];
    for (const s of [closed, proxied, closedFallback, proxiedFallback]) await time(() => boxed(s, command)); // warm up
    for (let i = 0; i < ROUNDS; i++) {
      // Interleaved, so a load spike on this shared machine touches every column alike.
      series[0].push(await time(() => runOnce('/bin/bash', ['-c', `exec 2>&1; ${command}`], ws, env)));
      series[1].push(await time(() => boxed(closed, command)));
      series[2].push(await time(() => boxed(proxied, command)));
      series[3].push(await time(() => boxed(closedFallback, command)));
      series[4].push(await time(() => boxed(proxiedFallback, command)));
    }
    const [ma, ...mb] = series.map(median);
    console.log(
      `${command.padEnd(11)} ${ma.toFixed(1).padStart(7)} ${cell(mb[0], ma, 20)} ${cell(mb[1], ma, 23)}` +
        ` ${cell(mb[2], ma, 25)} ${cell(mb[3], ma, 22)}`,
    );
  }
  // Where a boxed `true` spends its time, each step over the one before, in one interleaved run: bare
  // bubblewrap (a mount namespace, `/` read-only), then its namespaces and /dev, /proc, then the
  // product's mounts (writable roots, pinned folders, read-only paths and stand-ins, hidden secrets),
  // then nsenter into the chat's holder (the product's launch as is).
  {
    const launch = await closed.launch({ command: 'true', cwd: ws, env, sessionId: 'bench', callId: 'steps' });
    const at = launch.args.indexOf('--');
    const [bwrap, ...bwrapRest] = at >= 0 ? launch.args.slice(at + 1) : [launch.file, ...launch.args];
    const plan = launch.plan;
    const base = bwrapRest.slice(0, bwrapRest.indexOf('--bind'));
    const steps: Array<[string, string, string[]]> = [
      ['unboxed: bash -c true', '/bin/bash', ['-c', 'exec 2>&1; true']],
      ['bwrap --ro-bind / /', bwrap, ['--ro-bind', '/', '/', '/bin/bash', '-c', 'exec 2>&1; true']],
      [`+ PID namespace, /dev, /proc (${base.join(' ')})`, bwrap, [...base, '/bin/bash', '-c', 'exec 2>&1; true']],
      [
        `+ the plan's mounts (${plan.writable.length + 1} writable, ${plan.pinned.length} pinned, ` +
          `${plan.readOnly.length} read-only of which ${plan.readOnly.filter((r) => !r.exists).length} stand-ins, ` +
          `${plan.hidden.length} hidden)`,
        bwrap,
        bwrapRest,
      ],
      ['+ nsenter into the chat holder (as launched)', launch.file, launch.args],
    ];
    const series: number[][] = steps.map(() => []);
    for (let i = 0; i < ROUNDS; i++)
      for (const [k, [, file, args]] of steps.entries()) series[k].push(await time(() => runOnce(file, args, ws, env)));
    launch.release();
    console.log('where a boxed `true` spends its time (median ms; each step adds to the one before):');
    let before = 0;
    for (const [k, [label]] of steps.entries()) {
      const m = median(series[k]);
      const step = k ? `(${m >= before ? '+' : ''}${(m - before).toFixed(1)})` : '';
      console.log(`  ${m.toFixed(1).padStart(6)}  ${step.padStart(8)}  ${label}`);
      before = m;
    }
  }
  if (existsSync('/usr/bin/curl')) {
    const speeds: number[] = [];
    for (let i = 0; i < 3; i++) {
      const launch = await proxied.launch({
        command: `curl -s -o /dev/null -w '%{speed_download}\\n' --noproxy '' http://localhost:${port}/`,
        cwd: ws,
        env,
        sessionId: 'bench',
        callId: `t${i}`,
      });
      // Asynchronously: the proxy runs in this process and must keep serving while curl reads.
      const out = await new Promise<string>((resolve, reject) => {
        const child = spawn(launch.file, launch.args, {
          cwd: ws,
          env: launch.env,
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        let text = '';
        child.stdout.on('data', (b: Buffer) => (text += b.toString()));
        child.on('error', reject);
        child.on('close', () => resolve(text));
      });
      launch.release();
      speeds.push(Number(out.trim().split('\n').pop()) / 1e6);
    }
    console.log(
      `proxy throughput (256 MB over HTTP through the bridge, median of 3): ${median(speeds).toFixed(0)} MB/s`,
    );
  } else console.log('proxy throughput: skipped (no curl)');
  server.close();
  for (const s of [closed, proxied, closedFallback, proxiedFallback]) s.dispose();
  rmSync(base, { recursive: true, force: true });
}

void main();

// The box's cost: median wall time per command (`true`, `node -e 0`, `git status`) run as bash does
// — unboxed, boxed without network, boxed with the proxy bridge (forwarder started and waited for) —
// the launch preparation included; and the proxy's throughput end to end (curl in the box → in-box
// forwarder → unix socket → host proxy → a local HTTP server). Prints figures; asserts nothing.
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
  const box = (allowedHosts: string[]) =>
    createSandbox({
      settings: () => ({ mode: 'box', allowedHosts, extraWriteRoots: [] }),
      workspaceFolders: () => [ws],
      home: process.env.HOME ?? '/root',
      stateRoot: join(tmpdir(), `sextant-box-bench-${process.pid}`),
    });
  const closed = box([]);
  const proxied = box(['localhost']);
  let n = 0;
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
  console.log('command        unboxed   boxed (no network)   boxed (+proxy bridge)   [median ms; added vs unboxed]');
  for (const command of ['true', 'node -e 0', 'git status']) {
    const a: number[] = [];
    const b: number[] = [];
    const c: number[] = [];
    await time(() => boxed(closed, command)); // warm caches once
    for (let i = 0; i < ROUNDS; i++) {
      a.push(await time(() => runOnce('/bin/bash', ['-c', `exec 2>&1; ${command}`], ws, env)));
      b.push(await time(() => boxed(closed, command)));
      c.push(await time(() => boxed(proxied, command)));
    }
    const [ma, mb, mc] = [median(a), median(b), median(c)];
    console.log(
      `${command.padEnd(13)} ${ma.toFixed(1).padStart(7)}   ${mb.toFixed(1).padStart(7)} (+${(mb - ma).toFixed(1)})` +
        `        ${mc.toFixed(1).padStart(7)} (+${(mc - ma).toFixed(1)})`,
    );
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
  closed.dispose();
  proxied.dispose();
  rmSync(base, { recursive: true, force: true });
}

void main();

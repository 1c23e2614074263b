// The box's rules as data: what the plan makes writable, read-only (present or not) and hidden — from
// the policy's one list — and how bubblewrap's command line and the macOS profile express the same plan.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  PROTECTED_WRITES,
  SECRET_LOCATIONS,
  SHELL_STARTUP_FILES,
} from '../../../extension/core/permissions/protected-paths';
import { matchAllowedHost } from '../../../extension/core/sandbox/allowed-hosts';
import { planBox } from '../../../extension/core/sandbox/box-plan';
import { MAX_NESTED_SHADOWS } from '../../../extension/core/sandbox/git-in-box';
import { explainRefusal } from '../../../extension/core/sandbox/refusal';
import { bwrapArgs, boxScript } from '../../../extension/platform/sandbox/bwrap-args';
import { holderArgs } from '../../../extension/platform/sandbox/net-holder';
import { seatbeltProfile } from '../../../extension/platform/sandbox/seatbelt-profile';

const existing: Record<string, 'file' | 'dir'> = {
  '/ws': 'dir',
  '/ws/.git': 'dir',
  '/ws/.git/hooks': 'dir',
  '/ws/.git/config': 'file',
  '/ws/.vscode': 'dir',
  '/home/u/.ssh': 'dir',
  '/home/u/.netrc': 'file',
  '/home/u/.npm': 'dir',
  '/home/u/.cargo/bin': 'dir',
  '/extra': 'dir',
};
const plan = planBox({
  workspaceFolders: ['/ws'],
  extraWriteRoots: ['/extra'],
  home: '/home/u',
  sessionTemp: '/state/s-1',
  allowedHosts: ['registry.npmjs.org'],
  kindOf: (p) => existing[p],
});

test('writable: the workspace, extra roots and existing build caches — not tool bin folders', () => {
  assert.deepEqual(
    plan.writable.map((w) => `${w.why}:${w.path}`),
    ['workspace:/ws', 'extra root:/extra', 'build cache:/home/u/.npm'],
  );
});

test('read-only inside writable roots: from the policy list, present or not; .git narrowed to hooks and config', () => {
  const ws = plan.readOnly.filter((r) => r.path.startsWith('/ws/'));
  const byPath = new Map(ws.map((r) => [r.path, r]));
  assert.equal(byPath.get('/ws/.git/hooks')?.exists, true);
  assert.equal(byPath.get('/ws/.git/config')?.exists, true);
  assert.equal(byPath.has('/ws/.git'), false, 'git add / commit keep working');
  assert.equal(byPath.get('/ws/.vscode')?.exists, true);
  for (const missing of [
    '/ws/.mcp.json',
    '/ws/AGENTS.md',
    '/ws/CLAUDE.md',
    '/ws/.sextant',
    '/ws/.envrc',
    '/ws/.claude',
  ])
    assert.equal(byPath.get(missing)?.exists, false, missing);
  assert.equal(byPath.has('/ws/package.json'), false, 'npm install may write package.json');
  assert.equal(byPath.has('/ws/.bashrc'), false, 'shell startup files matter only in home');
  // Every concrete name the policy protects (but the two the box leaves writable) is there: one list.
  // (shell startup files and .gitconfig only in home; package.json and .git the box narrows on purpose)
  const homeOnly = new Set<string>([...SHELL_STARTUP_FILES, '.gitconfig']);
  const names = PROTECTED_WRITES.filter((e) => e.kind !== 'under-home' && !e.label.startsWith('*'))
    .flatMap((e) => e.names)
    .filter((n) => !['package.json', '.git'].includes(n) && !homeOnly.has(n));
  for (const n of names) assert.ok(byPath.has(`/ws/${n}`), `${n} from the policy's list`);
  assert.match(byPath.get('/ws/.mcp.json')?.reason ?? '', /stays read-only in the sandbox: it starts MCP servers/);
  // The extra root gets the same protection.
  assert.ok(plan.readOnly.some((r) => r.path === '/extra/.mcp.json'));
});

test('.git: pinned when it is a folder; a read-only stand-in when missing; read-only when it is a file', () => {
  assert.deepEqual(plan.pinned, ['/ws/.git'], 'a folder holding protected paths cannot be renamed away');
  assert.equal(
    plan.readOnly.some((r) => r.path === '/extra/.git'),
    true,
    'no .git in the extra root: git init there would make hooks',
  );
  const without = planBox({
    workspaceFolders: ['/w'],
    extraWriteRoots: [],
    home: '/home/u',
    sessionTemp: '/state/s-1',
    allowedHosts: [],
    kindOf: (p) => (p === '/w' ? 'dir' : undefined),
  });
  const git = without.readOnly.find((r) => r.path === '/w/.git');
  assert.equal(git?.exists, false);
  assert.equal(git?.kind, 'dir');
  assert.match(git?.reason ?? '', /^\.git stays read-only in the sandbox while it does not exist, since it would hold/);
  assert.equal(without.readOnly.filter((r) => r.path.startsWith('/w/.git/')).length, 0);
  assert.deepEqual(without.pinned, []);
  const worktree = planBox({
    workspaceFolders: ['/w'],
    extraWriteRoots: [],
    home: '/home/u',
    sessionTemp: '/state/s-1',
    allowedHosts: [],
    kindOf: (p) => (p === '/w' ? 'dir' : p === '/w/.git' ? 'file' : undefined),
  });
  const gitFile = worktree.readOnly.find((r) => r.path === '/w/.git');
  assert.deepEqual([gitFile?.kind, gitFile?.exists], ['file', true], "a worktree's .git file says where hooks are");
  const args = bwrapArgs(plan, { emptyFile: '/b/ef', emptyDir: '/b/ed' }, 'true').join(' ');
  assert.ok(args.indexOf('--bind /ws/.git /ws/.git') > args.indexOf('--bind /ws /ws'));
  assert.ok(args.indexOf('--bind /ws/.git /ws/.git') < args.indexOf('--ro-bind /ws/.git/hooks /ws/.git/hooks'));
});

test('hidden: the secret locations that exist, from the same list', () => {
  assert.deepEqual(
    plan.hidden.map((h) => `${h.kind}:${h.path}`),
    ['dir:/home/u/.ssh', 'file:/home/u/.netrc'],
  );
  assert.ok(SECRET_LOCATIONS.some((s) => s.path === '.ssh'));
  assert.match(plan.hidden[0].reason, /~\/\.ssh\/ is hidden in the sandbox: it holds your SSH private keys/);
});

test('bubblewrap: read-only root, own /dev /proc /tmp, writable binds, read-only binds after them, hidden last', () => {
  const args = bwrapArgs(plan, { emptyFile: '/b/ef', emptyDir: '/b/ed', boxDir: '/b' }, 'true');
  const s = args.join(' ');
  for (const flag of ['--die-with-parent', '--new-session', '--unshare-net', '--unshare-pid'])
    assert.ok(args.includes(flag), flag);
  assert.match(s, /--ro-bind \/ \/ --dev \/dev --proc \/proc --bind \/state\/s-1 \/tmp/);
  const at = (x: string) => s.indexOf(x);
  assert.ok(at('--bind /ws /ws') < at('--ro-bind /ws/.git/hooks /ws/.git/hooks'));
  assert.ok(at('--ro-bind /b/ed /ws/.mcp.json') > 0, 'a missing protected file gets an empty read-only folder');
  assert.ok(at('--tmpfs /home/u/.ssh --remount-ro /home/u/.ssh') > at('--bind /home/u/.npm /home/u/.npm'));
  assert.ok(at('--ro-bind /b/ef /home/u/.netrc') > 0);
  assert.deepEqual(args.slice(-5, -3), ['--chdir', '/ws']);
  assert.deepEqual(args.slice(-3), ['/bin/bash', '-c', 'true']);
});

test('in a chat holder: a command makes no network or IPC namespace, keeps its PID one; state covered', () => {
  const args = bwrapArgs(plan, { emptyFile: '/b/ef', emptyDir: '/b/ed', sharedNet: true, cover: ['/state'] }, 'true');
  const s = args.join(' ');
  assert.ok(!args.includes('--unshare-net') && !args.includes('--unshare-ipc'));
  for (const flag of ['--die-with-parent', '--new-session', '--unshare-pid']) assert.ok(args.includes(flag), flag);
  assert.ok(!s.includes('.sextant-box'), 'no forwarder folder in a command of a holder');
  assert.ok(s.indexOf('--tmpfs /state --remount-ro /state') > s.indexOf('--bind /ws /ws'));
  assert.ok(s.indexOf('--tmpfs /state') < s.indexOf('--ro-bind /ws/.git/hooks'));
});

test('the holder: own user (unprivileged), network, IPC, PID namespaces; no /dev; only its folder writable', () => {
  const user = holderArgs('/h', { node: '/usr/bin/node' }, false);
  for (const flag of ['--unshare-user', '--unshare-net', '--unshare-ipc', '--unshare-pid', '--die-with-parent'])
    assert.ok(user.includes(flag), flag);
  assert.ok(!user.includes('--dev'), 'a /dev would nest a second user namespace that owns nothing nsenter can join');
  assert.deepEqual(
    user.flatMap((a, i) => (a === '--bind' ? [`${user[i + 1]}:${user[i + 2]}`] : [])),
    ['/h:/tmp/.sextant-box'],
  );
  assert.match(user.at(-1) ?? '', /forwarder\.cjs \/tmp\/\.sextant-box\/proxy\.sock 3128$/);
  const root = holderArgs('/h', undefined, true);
  assert.ok(!root.includes('--unshare-user'), 'as root bwrap makes no user namespace');
  assert.equal(root.at(-1), 'echo ready; exec cat');
});

test('the in-box script waits for the forwarder only when hosts are allowed', () => {
  assert.equal(boxScript('make', undefined), 'exec 2>&1; make');
  const withProxy = boxScript('make', { node: '/usr/bin/node' });
  assert.match(withProxy, /ELECTRON_RUN_AS_NODE=1 exec '\/usr\/bin\/node' \/tmp\/\.sextant-box\/forwarder\.cjs/);
  assert.match(withProxy, /read -r _ <&3; exec 3<&-; exec 2>&1; make$/);
});

test('macOS: the profile denies by default, writes only to the roots, never to protected or hidden paths', () => {
  const p = seatbeltProfile(plan, 40123);
  assert.match(p, /^\(version 1\)\n\(deny default\)/);
  assert.match(
    p,
    new RegExp(
      ['/ws', '/extra', '/home/u/.npm', '/state/s-1']
        .map((p) => `\\(subpath "${p.replace(/\./g, '\\.')}"\\)`)
        .join(' ')
        .replace(/^/, '\\(allow file-write\\* '),
    ),
  );
  assert.match(p, /\(deny file-write\* \(subpath "\/ws\/\.mcp\.json"\)\)/);
  assert.match(p, /\(deny file-read\* \(subpath "\/home\/u\/\.ssh"\)\)/);
  assert.match(p, /\(allow network-outbound \(remote ip "localhost:40123"\)\)/);
  assert.doesNotMatch(p, /allow network-outbound \(remote ip "\*/);
  assert.doesNotMatch(p, /allow network\*/, 'no blanket network rule: local host servers stay out of reach');
  // Denials come after the allowances (later rules win in Seatbelt).
  assert.ok(p.indexOf('(deny file-write* (subpath "/ws/.git/hooks"))') > p.indexOf('(allow file-write*'));
  assert.match(seatbeltProfile({ ...plan, writable: [{ path: '/a"b', why: 'workspace' }] }, undefined), /"\/a\\"b"/);
  assert.doesNotMatch(seatbeltProfile(plan, undefined), /network-outbound/);
});

test('allowed hosts: exact names, *. for subdomains, host:port; nothing else', () => {
  const list = ['registry.npmjs.org', '*.pythonhosted.org', 'localhost:8080'];
  assert.equal(matchAllowedHost(list, 'REGISTRY.npmjs.org', 443), 'registry.npmjs.org');
  assert.equal(matchAllowedHost(list, 'files.pythonhosted.org', 443), '*.pythonhosted.org');
  assert.equal(matchAllowedHost(list, 'pythonhosted.org', 443), undefined);
  assert.equal(matchAllowedHost(list, 'evilpythonhosted.org', 443), undefined);
  assert.equal(matchAllowedHost(list, 'localhost', 8080), 'localhost:8080');
  assert.equal(matchAllowedHost(list, 'localhost', 8081), undefined);
  assert.equal(matchAllowedHost(list, 'registry.npmjs.org.evil.com', 443), undefined);
});

test('refusals named from output and proxy: protected, outside (a folder to allow), secret, host', () => {
  const connections = [{ host: 'evil.example', port: 443, allowed: false, rule: 'evil.example is not in …' }];
  const host = explainRefusal({ plan, output: 'curl: (56) …', connections });
  assert.deepEqual([host?.kind, host?.target, host?.widen?.value], ['network', 'evil.example:443', 'evil.example']);
  const hooks = explainRefusal({
    plan,
    output: "touch: cannot touch '.git/hooks/x': Read-only file system",
    connections: [],
  });
  assert.deepEqual([hooks?.kind, hooks?.target, hooks?.widen], ['protected', '.git/hooks/x', undefined]);
  const node = explainRefusal({
    plan,
    output: "Error: EROFS: read-only file system, open '/opt/x/y.txt'",
    connections: [],
  });
  assert.deepEqual(
    [node?.kind, node?.widen?.setting, node?.widen?.value],
    ['outside', 'sandbox.extraWriteRoots', '/opt/x'],
  );
  const py = explainRefusal({
    plan,
    output: "OSError: [Errno 30] Read-only file system: '/home/u/.ssh/k'",
    connections: [],
  });
  assert.equal(py?.kind, 'secret');
  const missingRead = explainRefusal({
    plan,
    output: 'cat: /home/u/.ssh/id_rsa: No such file or directory',
    connections: [],
  });
  assert.equal(missingRead?.kind, 'secret');
  const standIn = explainRefusal({ plan, output: '/bin/bash: line 1: .mcp.json: Is a directory', connections: [] });
  assert.equal(standIn?.kind, 'protected');
  assert.equal(explainRefusal({ plan, output: 'src/x.ts: Is a directory', connections: [] }), undefined);
  assert.equal(explainRefusal({ plan, output: 'tests failed: 3', connections: [] }), undefined);
  assert.equal(explainRefusal({ plan, output: 'getaddrinfo EAI_AGAIN example.com', connections: [] })?.kind, 'network');
});

test('.git as the box shows it: live data writable, rewritten files copied, the rest read-only', () => {
  const entries = [
    { name: 'objects', kind: 'dir' as const },
    { name: 'refs', kind: 'dir' as const },
    { name: 'logs', kind: 'dir' as const },
    { name: 'hooks', kind: 'dir' as const },
    { name: 'modules', kind: 'dir' as const },
    { name: 'config', kind: 'file' as const },
    { name: 'index', kind: 'file' as const },
    { name: 'HEAD', kind: 'file' as const },
    { name: 'description', kind: 'file' as const },
  ];
  const shadowed = planBox({
    workspaceFolders: ['/ws'],
    extraWriteRoots: [],
    home: '/home/u',
    sessionTemp: '/state/s-1',
    allowedHosts: [],
    socketFolders: ['/run', '/ws/run-inside'],
    gitFolder: (root) => (root === '/ws' ? { path: '/ws/.git', entries } : undefined),
    kindOf: (p) => existing[p],
  });
  assert.deepEqual(shadowed.git, [
    {
      path: '/ws/.git',
      via: '/ws/.git',
      live: ['objects', 'refs', 'logs'],
      readOnly: [
        { name: 'hooks', kind: 'dir' },
        { name: 'modules', kind: 'dir' },
        { name: 'config', kind: 'file' },
        { name: 'description', kind: 'file' },
      ],
      state: ['index', 'HEAD'],
    },
  ]);
  assert.equal(shadowed.pinned.includes('/ws/.git'), false, 'the shadow is the mount point');
  assert.equal(
    shadowed.readOnly.some((r) => r.path.startsWith('/ws/.git')),
    false,
    'no separate hooks/config binds',
  );
  assert.deepEqual(shadowed.hostSockets, ['/run'], 'a socket folder inside a writable root stays as it is');
  const args = bwrapArgs(
    shadowed,
    { emptyFile: '/e/f', emptyDir: '/e/d', gitShadows: ['--bind', '/g', '/ws/.git'] },
    'x',
  );
  assert.ok(args.join(' ').includes('--tmpfs /run'));
  assert.ok(args.indexOf('--tmpfs') < args.indexOf('/ws'), 'socket folders are covered before the writable roots');
  const profile = seatbeltProfile(shadowed, undefined);
  assert.match(
    profile,
    /\(deny file-write\* \(subpath "\/ws\/\.git"\)\)\n\(allow file-write\* \(subpath "\/ws\/\.git\/objects"\)/,
  );
  const refusal = explainRefusal({
    plan: shadowed,
    output: 'bash: line 1: .git/modules/x/hooks/post-checkout: Read-only file system',
    connections: [],
  });
  assert.equal(refusal?.kind, 'protected');
  assert.match(
    refusal?.rule ?? '',
    /^\.git\/modules stays read-only in the sandbox: git reads it as configuration or code/,
  );
});

test('refusals read paths with spaces whole, as bash, coreutils and node print them', () => {
  const spaced = planBox({
    workspaceFolders: ['/w s/ws'],
    extraWriteRoots: [],
    home: '/w s/home',
    sessionTemp: '/state/s-1',
    allowedHosts: [],
    socketFolders: ['/w s/run'],
    kindOf: (p) => (p === '/w s/home/.ssh' ? 'dir' : undefined),
  });
  const explain = (output: string) => explainRefusal({ plan: spaced, output, connections: [] });
  assert.equal(explain("cat: '/w s/home/.ssh/id_rsa': No such file or directory")?.kind, 'secret');
  assert.equal(explain('connect ENOENT /w s/run/bus')?.kind, 'secret');
  assert.equal(explain('bash: line 1: /w s/out/x.txt: Read-only file system')?.target, '/w s/out/x.txt');
});

test('a nested repository: its .git the box’s own too; a .git file read-only, its target shadowed', () => {
  const entries = [
    { name: 'objects', kind: 'dir' as const },
    { name: 'hooks', kind: 'dir' as const },
    { name: 'config', kind: 'file' as const },
    { name: 'index', kind: 'file' as const },
  ];
  const kinds: Record<string, 'file' | 'dir'> = { ...existing, '/ws/vendor/lib/.git': 'dir', '/ws/sub/.git': 'file' };
  const folders: Record<string, string> = {
    '/ws': '/ws/.git',
    '/ws/vendor/lib': '/ws/vendor/lib/.git',
  };
  const nested = planBox({
    workspaceFolders: ['/ws'],
    extraWriteRoots: [],
    home: '/home/u',
    sessionTemp: '/state/s-1',
    allowedHosts: [],
    gitFolder: (root) => (folders[root] ? { path: folders[root], entries } : undefined),
    nestedRepositories: (root) => (root === '/ws' ? ['/ws/vendor/lib', '/ws/sub', '/ws/gone'] : []),
    gitFileTarget: (file) => (file === '/ws/sub/.git' ? { path: '/ws/store/sub.git', entries } : undefined),
    kindOf: (p) => kinds[p],
  });
  assert.deepEqual(
    nested.git.map((g) => [g.path, g.via, g.live, g.readOnly.map((e) => e.name), g.state]),
    [
      ['/ws/.git', '/ws/.git', ['objects'], ['hooks', 'config'], ['index']],
      ['/ws/vendor/lib/.git', '/ws/vendor/lib/.git', ['objects'], ['hooks', 'config'], ['index']],
      ['/ws/store/sub.git', '/ws/sub/.git', ['objects'], ['hooks', 'config'], ['index']],
    ],
  );
  const file = nested.readOnly.find((r) => r.path === '/ws/sub/.git');
  assert.equal(file?.kind, 'file');
  assert.match(file?.reason ?? '', /^sub\/\.git stays read-only: it says where a nested repository is/);
  const refusal = explainRefusal({
    plan: nested,
    output: 'bash: line 1: vendor/lib/.git/hooks/pre-commit: Read-only file system',
    connections: [],
  });
  assert.equal(refusal?.target, 'vendor/lib/.git/hooks/pre-commit');
  assert.match(refusal?.rule ?? '', /^\.git\/hooks stays read-only in the sandbox/);

  // A submodule's .git file pointing into the workspace's own .git/modules: covered there, read-only.
  const submodule = planBox({
    workspaceFolders: ['/ws'],
    extraWriteRoots: [],
    home: '/home/u',
    sessionTemp: '/state/s-1',
    allowedHosts: [],
    gitFolder: (root) => (root === '/ws' ? { path: '/ws/.git', entries } : undefined),
    nestedRepositories: () => ['/ws/sub'],
    gitFileTarget: () => ({ path: '/ws/.git/modules/sub', entries }),
    kindOf: (p) => kinds[p],
  });
  assert.deepEqual(
    submodule.git.map((g) => g.path),
    ['/ws/.git'],
  );
  assert.ok(submodule.readOnly.some((r) => r.path === '/ws/sub/.git'));

  // Past MAX_NESTED_SHADOWS repositories, a nested .git is read-only as a whole (one mount, not ten).
  const many = Array.from({ length: MAX_NESTED_SHADOWS + 2 }, (_, i) => `/ws/r${i}`);
  const crowded = planBox({
    workspaceFolders: ['/ws'],
    extraWriteRoots: [],
    home: '/home/u',
    sessionTemp: '/state/s-1',
    allowedHosts: [],
    gitFolder: (root) => ({ path: `${root}/.git`, entries }),
    nestedRepositories: () => many,
    kindOf: (p) => (p.endsWith('/.git') ? 'dir' : existing[p]),
  });
  assert.equal(crowded.git.length, 1 + MAX_NESTED_SHADOWS);
  const whole = crowded.readOnly.filter((r) => /^\/ws\/r\d+\/\.git$/.test(r.path));
  assert.deepEqual(
    whole.map((r) => r.path),
    [`/ws/r${MAX_NESTED_SHADOWS}/.git`, `/ws/r${MAX_NESTED_SHADOWS + 1}/.git`],
  );
  assert.match(whole[0].reason, /stays read-only: the workspace holds more than 16 repositories/);
});

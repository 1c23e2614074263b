// The host's unix sockets, kept out of the box. A network namespace covers TCP and abstract sockets,
// not sockets in the file system: the read-only root would still show /run/docker.sock (root on the
// machine: a container with the host's / bound in), the session bus (`systemd-run --user` runs a
// program outside the box), ssh and gpg agents and VS Code's own IPC. So the folders that hold them
// get an empty private tmpfs in the box, and the variables that name a socket or an agent are dropped
// from its environment. (macOS: the profile already refuses every connection but the proxy's port.)

/**
 * Variables that lead a boxed command to a host socket or a helper outside the box; dropped from a
 * boxed command's environment whatever their value.
 */
export const HOST_IPC_VARIABLES: readonly string[] = [
  'DBUS_SESSION_BUS_ADDRESS',
  'DBUS_SYSTEM_BUS_ADDRESS',
  'SSH_AUTH_SOCK',
  'SSH_AGENT_PID',
  'GPG_AGENT_INFO',
  'DOCKER_HOST',
  'CONTAINER_HOST',
  'PODMAN_HOST',
  'DISPLAY',
  'WAYLAND_DISPLAY',
  'XAUTHORITY',
  'VSCODE_GIT_IPC_HANDLE',
  'VSCODE_IPC_HOOK',
  'VSCODE_IPC_HOOK_CLI',
  'VSCODE_IPC_HOOK_EXTHOST',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'VSCODE_GIT_ASKPASS_NODE',
  'VSCODE_GIT_ASKPASS_MAIN',
  'VSCODE_GIT_ASKPASS_EXTRA_ARGS',
];

/** `env` without the host IPC variables (and none of VS Code's other IPC hooks). */
export function withoutHostIpc(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (HOST_IPC_VARIABLES.includes(k) || /^VSCODE_.*(?:IPC|ASKPASS)/.test(k)) continue;
    out[k] = v;
  }
  return out;
}

/**
 * Folders that hold the host's sockets, covered in the box: /run and /var/run (docker, dbus, nscd,
 * systemd, /run/user/<uid> with the session bus and VS Code's sockets), $XDG_RUNTIME_DIR wherever it
 * is, Docker Desktop's ~/.docker/run, and the folder of a unix DOCKER_HOST / CONTAINER_HOST. /tmp (X11,
 * tmux, ssh-agent's default) needs nothing: the box's /tmp is its own.
 */
export function hostSocketFolders(env: Readonly<Record<string, string | undefined>>, home: string): string[] {
  const out = ['/run', '/var/run'];
  if (env.XDG_RUNTIME_DIR?.startsWith('/')) out.push(env.XDG_RUNTIME_DIR);
  out.push(`${home}/.docker/run`);
  for (const name of ['DOCKER_HOST', 'CONTAINER_HOST']) {
    const m = /^unix:\/\/(\/.+)\/[^/]+$/.exec(env[name] ?? '');
    if (m) out.push(m[1]);
  }
  return [...new Set(out.map((p) => p.replace(/\/+$/, '') || '/'))].filter((p) => p !== '/');
}

/** Why a path under a covered folder is missing in the box, for the refusal. */
export function socketFolderReason(folder: string): string {
  return (
    `${folder} is empty in the sandbox: it holds the host's sockets (Docker, the session bus, agents, ` +
    "VS Code's IPC), and a boxed command that reached them could act outside the box"
  );
}

// One network holder per chat (net-holder.ts), started on the chat's first boxed command and kept
// while it is used: its proxy (one unix socket per holder, so a chat's connections stay its own), the
// commands running in it (each connection is reported to them, for the edge prompt's refusal), and
// its end — stopped after a while without commands, replaced when it died or when the proxy bridge
// must come or go (allowedHosts became empty / non-empty), stopped with the window.
import { rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { join } from 'node:path';
import type { BoxConnection } from '../../core/sandbox/types';
import { makeBoxFolder, PROXY_SOCKET } from './box-folder';
import { FORWARDER_SOURCE } from './forwarder';
import { type NetHolder, startNetHolder } from './net-holder';
import { startBoxProxy } from './proxy';

/** A holder without commands for this long is stopped (a forwarder is a Node process: ~40 MB). */
const IDLE_MS = 10 * 60_000;

export interface HolderUser {
  callId: string;
  record(c: BoxConnection): void;
}

interface Entry {
  proxied: boolean;
  holder: Promise<NetHolder>;
  users: Set<HolderUser>;
  proxy?: Server;
  boxDir: string;
  gone: boolean;
  /** Replaced while commands still ran in it: stopped when the last one ends. */
  retired: boolean;
  idle?: ReturnType<typeof setTimeout>;
}

export interface HolderPoolOptions {
  bwrap: string;
  nsenter: string;
  stateRoot: string;
  node: string;
  allowedHosts(): readonly string[];
  onConnection(c: BoxConnection, who: { sessionId: string; callId: string }): void;
}

export interface HolderLease {
  enter: string[];
  /** The command has ended: no more connections are reported to it. */
  release(): void;
}

export class HolderPool {
  private readonly entries = new Map<string, Entry>();
  private seq = 0;

  constructor(private readonly o: HolderPoolOptions) {}

  /** The chat's holder (started if needed) and a lease for one command in it. */
  async lease(sessionId: string, proxied: boolean, user: HolderUser): Promise<HolderLease> {
    let entry = this.entries.get(sessionId);
    if (
      entry &&
      (entry.gone ||
        entry.proxied !== proxied ||
        !(await entry.holder.then(
          (h) => h.alive(),
          () => false,
        )))
    )
      this.retire(sessionId, entry);
    entry = this.entries.get(sessionId);
    if (!entry) {
      entry = this.start(sessionId, proxied);
      this.entries.set(sessionId, entry);
    }
    const e = entry;
    let holder: NetHolder;
    try {
      holder = await e.holder;
    } catch (err) {
      this.retire(sessionId, e);
      throw err;
    }
    if (e.idle) clearTimeout(e.idle);
    e.idle = undefined;
    e.users.add(user);
    let released = false;
    return {
      enter: holder.enter,
      release: () => {
        if (released) return;
        released = true;
        e.users.delete(user);
        if (e.users.size > 0) return;
        if (e.retired) this.stop(e);
        else {
          e.idle = setTimeout(() => {
            if (this.entries.get(sessionId) === e) this.entries.delete(sessionId);
            this.stop(e);
          }, IDLE_MS);
          e.idle.unref?.();
        }
      },
    };
  }

  dispose(): void {
    for (const e of this.entries.values()) this.stop(e);
    this.entries.clear();
  }

  private start(sessionId: string, proxied: boolean): Entry {
    const boxDir = makeBoxFolder(this.o.stateRoot, `h-${process.pid}-${++this.seq}`);
    const entry: Entry = { proxied, users: new Set(), boxDir, gone: false, retired: false } as Entry;
    entry.holder = (async () => {
      if (proxied) {
        writeFileSync(join(boxDir, 'forwarder.cjs'), FORWARDER_SOURCE, { mode: 0o400 });
        entry.proxy = await startBoxProxy({
          listen: join(boxDir, PROXY_SOCKET),
          allowedHosts: this.o.allowedHosts,
          onConnection: (c) => {
            const users = [...entry.users];
            for (const u of users) u.record(c);
            // The audit line names the chat's latest command (connections of concurrent ones share a holder).
            this.o.onConnection(c, { sessionId, callId: users.at(-1)?.callId ?? '' });
          },
        });
      }
      return startNetHolder({
        bwrap: this.o.bwrap,
        nsenter: this.o.nsenter,
        boxDir,
        forwarder: proxied ? { node: this.o.node } : undefined,
        onExit: () => {
          entry.gone = true;
          entry.proxy?.close();
        },
      });
    })();
    // A failed start is reported to the lease; keep the rejection from being "unhandled" here.
    entry.holder.catch(() => undefined);
    return entry;
  }

  private retire(sessionId: string, e: Entry): void {
    if (this.entries.get(sessionId) === e) this.entries.delete(sessionId);
    e.retired = true;
    if (e.users.size === 0) this.stop(e);
  }

  private stop(e: Entry): void {
    if (e.idle) clearTimeout(e.idle);
    e.gone = true;
    e.holder.then(
      (h) => h.stop(),
      () => undefined,
    );
    e.proxy?.close();
    rmSync(e.boxDir, { recursive: true, force: true });
  }
}

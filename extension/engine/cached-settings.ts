// A settings source that keeps each value it has read until the settings change. Reading a setting
// from VS Code is not free (a fresh configuration object and an `inspect` per key: 4–8 ms of the
// extension host's time for the ~20 keys a request reads), and a request reads them several times
// on its way to the model. The host that owns the source drops what it holds on every change it is
// told of (`invalidate`); while nobody watches for changes (`watching` false), every read goes to
// the source itself, so a value is never kept without someone to say when it goes stale.
import type { SettingsSource } from './settings';
import { type ManagedState, NO_MANAGED } from '../core/config/managed-settings';

export class CachedSettingsSource implements SettingsSource {
  private readonly userValues = new Map<string, unknown>();
  private readonly anyValues = new Map<string, unknown>();
  private watchers = 0;

  constructor(private readonly inner: SettingsSource) {}

  user(key: string): unknown {
    return this.read(this.userValues, key, () => this.inner.user(key));
  }

  any(key: string): unknown {
    return this.read(this.anyValues, key, () => this.inner.any(key));
  }

  /** The administrator's settings, never kept here: their reader re-reads the file when it changes. */
  managed(): ManagedState {
    return this.inner.managed?.() ?? NO_MANAGED;
  }

  /** The settings changed (or may have): the next read of every key goes to the source. */
  invalidate(): void {
    this.userValues.clear();
    this.anyValues.clear();
  }

  /** Whether values are kept (someone watches for changes and invalidates). */
  get watching(): boolean {
    return this.watchers > 0;
  }

  /**
   * Values are kept from now until the returned function is called: the caller promises to call
   * `invalidate()` on every change until then.
   */
  watch(): () => void {
    this.watchers++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.watchers--;
      this.invalidate();
    };
  }

  private read(values: Map<string, unknown>, key: string, load: () => unknown): unknown {
    if (!this.watching) return load();
    if (values.has(key)) return values.get(key);
    const value = load();
    values.set(key, value);
    return value;
  }
}

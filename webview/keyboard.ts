// Keyboard rules of the view that are worth testing on their own: mode cycling and Esc Esc.
import type { Mode, ModeAvailability } from '../extension/protocol';

/** The next enabled mode after `current`, wrapping around; undefined when no other is enabled. */
export function nextEnabledMode(
  modes: ReadonlyArray<Pick<ModeAvailability, 'mode' | 'enabled'>>,
  current: Mode,
): Mode | undefined {
  const start = modes.findIndex((m) => m.mode === current);
  for (let step = 1; step <= modes.length; step++) {
    const candidate = modes[(start + step + modes.length) % modes.length];
    if (candidate.enabled && candidate.mode !== current) return candidate.mode;
  }
  return undefined;
}

/** Detects a key pressed twice within `windowMs` (Esc Esc aborts; a single Esc does nothing). */
export class DoublePress {
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly windowMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Records a press; true when it completes a double press (which then starts over). */
  press(): boolean {
    const t = this.now();
    if (t - this.last <= this.windowMs) {
      this.last = Number.NEGATIVE_INFINITY;
      return true;
    }
    this.last = t;
    return false;
  }

  reset(): void {
    this.last = Number.NEGATIVE_INFINITY;
  }
}

// The sandbox's state in the words the header shows (and a screen reader reads): what runs where,
// and — when no backend works — why and the fix.
import type { SandboxView } from '../../protocol';
import type { SandboxStatus } from './types';

const GUIDE_HINT = 'see "The sandbox" in the user guide (docs/guide/sandbox.md)';

export function sandboxView(s: SandboxStatus): SandboxView {
  if (!s.backend)
    return {
      state: 'unavailable',
      summary: 'No sandbox: commands ask unless your own rule allows them',
      detail: `${s.reason ?? 'no backend works here'}. Fix: ${s.fix ?? GUIDE_HINT}.`,
    };
  if (s.mode === 'off')
    return {
      state: 'off',
      summary: 'Sandbox off: commands run with your full rights',
      detail: `sextant.sandbox.mode is off (${s.backend} would work here).`,
    };
  const what =
    'Commands run in the sandbox: they write only the workspace, extra write roots, build caches and a temp ' +
    'folder; protected files stay read-only; secrets are hidden; the network reaches only ' +
    'sextant.sandbox.network.allowedHosts.';
  return s.mode === 'auto'
    ? { state: 'auto', summary: `Sandbox (${s.backend}), auto: boxed commands run without asking`, detail: what }
    : { state: 'boxed', summary: `Sandbox (${s.backend}): commands run boxed, your rules decide`, detail: what };
}

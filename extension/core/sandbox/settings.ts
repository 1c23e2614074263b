// sextant.sandbox.mode and sextant.sandbox.network.allowedHosts as read from user settings (any JSON
// will do): a bad value is reported and replaced by the safe default, never silently widened.
import { DEFAULT_ALLOWED_HOSTS } from './allowed-hosts';
import type { SandboxMode } from './types';

const MODES: SandboxMode[] = ['auto', 'box', 'off'];

export interface SandboxSettingsRead {
  mode: SandboxMode;
  /** The administrator requires the box (managed settings): `off` is not used, nothing runs outside it. */
  required: boolean;
  allowedHosts: string[];
  problems: string[];
}

export function parseSandboxSettings(raw: {
  mode: unknown;
  allowedHosts: unknown;
  required?: boolean;
}): SandboxSettingsRead {
  const problems: string[] = [];
  let mode: SandboxMode = 'box';
  if (raw.mode !== undefined) {
    if (MODES.includes(raw.mode as SandboxMode)) mode = raw.mode as SandboxMode;
    else problems.push(`sextant.sandbox.mode is one of ${MODES.join(', ')}; using box`);
  }
  const required = raw.required === true;
  if (required && mode === 'off') {
    problems.push('sextant.sandbox.mode "off" is not used: your administrator requires the sandbox (managed settings)');
    mode = 'box';
  }
  let allowedHosts = [...DEFAULT_ALLOWED_HOSTS];
  if (raw.allowedHosts !== undefined) {
    if (!Array.isArray(raw.allowedHosts)) {
      problems.push('sextant.sandbox.network.allowedHosts must be a list of host names; no host is allowed');
      allowedHosts = [];
    } else {
      allowedHosts = [];
      for (const h of raw.allowedHosts) {
        if (typeof h === 'string' && /^(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/.test(h.trim())) allowedHosts.push(h.trim());
        else problems.push(`sextant.sandbox.network.allowedHosts: "${String(h)}" is not a host name; it is ignored`);
      }
    }
  }
  return { mode, required, allowedHosts, problems };
}

// The header's "Permission mode" picker: what a call no rule covers gets (sextant.permissions.defaultMode,
// written to the user's settings by the host). Auto sends it to a reviewer model; the floor (protected
// paths, secrets, writes outside the workspace, leaving the box, …) asks in every mode.
import { html, nothing, type TemplateResult } from 'lit';
import { live } from 'lit/directives/live.js';
import { type PermissionMode, PermissionModeSchema } from '../../extension/protocol';

export const PERMISSION_MODE_LABELS: Record<PermissionMode, string> = {
  ask: 'Ask',
  auto: 'Auto',
  acceptEdits: 'Accept edits',
  allow: 'Allow',
};

const TITLES: Record<PermissionMode, string> = {
  ask: 'Ask: writes and commands ask unless a rule allows them',
  auto: 'Auto: a reviewer model answers what only asks because no rule covers it; the floor still asks',
  acceptEdits: 'Accept edits: edits inside the workspace run; commands ask',
  allow: 'Allow: everything runs except the floor (protected paths, secrets, outside writes, …) and deny rules',
};

export function renderPermissionMode(
  mode: PermissionMode | undefined,
  choose: (mode: PermissionMode) => void,
): TemplateResult | typeof nothing {
  if (!mode) return nothing;
  const changed = (e: Event) => {
    const parsed = PermissionModeSchema.safeParse((e.target as HTMLSelectElement).value);
    if (parsed.success) choose(parsed.data);
  };
  return html`<select class="permission-mode" aria-label="Permission mode" title=${TITLES[mode]} @change=${changed}>
    ${PermissionModeSchema.options.map(
      (m) =>
        html`<option value=${m} title=${TITLES[m]} .selected=${live(m === mode)}>${PERMISSION_MODE_LABELS[m]}</option>`,
    )}
  </select>`;
}

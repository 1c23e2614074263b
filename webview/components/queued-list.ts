// Messages queued while a turn runs: a list named "Queued" above the composer, each message editable
// in place (the host keeps the edit), removable, or sent into the running turn at once ("Steer"). The
// host sends them one by one when a turn completes; Stop leaves them here.
import { html, nothing } from 'lit';
import type { QueuedMessage } from '../../extension/protocol';
import type { HostChannel } from '../host';

export function renderQueued(items: readonly QueuedMessage[], host: HostChannel, running: boolean): unknown {
  if (!items.length) return nothing;
  return html`<ul class="queued" role="list" aria-label="Queued">
    ${items.map(
      (m, i) => html`<li class="queued-item">
        <input
          class="queued-text"
          aria-label=${`Queued item ${i + 1}`}
          .value=${m.text}
          @change=${(e: Event) =>
            host.post({ type: 'queueEdit', id: m.id, text: (e.target as HTMLInputElement).value })}
        />
        ${
          running
            ? html`<button
                class="link-button"
                aria-label=${`Steer with queued item ${i + 1}`}
                title="Send it into the running turn now (at its next step)"
                @click=${() => host.post({ type: 'steer', id: m.id, mode: m.mode })}
              >Steer</button>`
            : nothing
        }
        <button
          class="link-button"
          aria-label=${`Remove queued item ${i + 1}`}
          @click=${() => host.post({ type: 'queueRemove', id: m.id })}
        >Remove</button>
      </li>`,
    )}
  </ul>`;
}

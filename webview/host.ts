// The webview's side of the host channel: typed posts out, validated messages in, view state.
import {
  type ChatImage,
  ChatImagesSchema,
  OutboundSchema,
  parseReferences,
  type Inbound,
  type Outbound,
  type Reference,
} from '../extension/protocol';

/** What the webview keeps across re-creation: view state only (the host owns the chat). */
export interface ViewState {
  draft: string;
  /** The composer's `@` chips. */
  references?: Reference[];
  /** The composer's images (within a size budget: composer-images.ts `imagesForViewState`). */
  images?: ChatImage[];
  /** The session shown: an editor tab restored after a reload reopens it (chat-panels.ts). */
  sessionId?: string;
}

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  // Provided by VS Code (and by the test harness) exactly once per page.
  function acquireVsCodeApi(): VsCodeApi;
}

export class HostChannel {
  private readonly api: VsCodeApi;
  private viewState: ViewState;

  constructor(api: VsCodeApi = acquireVsCodeApi()) {
    this.api = api;
    const raw = api.getState();
    const draft =
      raw && typeof raw === 'object' && typeof (raw as { draft?: unknown }).draft === 'string'
        ? (raw as { draft: string }).draft
        : '';
    const refs = parseReferences((raw as { references?: unknown } | undefined)?.references);
    const images = ChatImagesSchema.safeParse((raw as { images?: unknown } | undefined)?.images);
    const sessionId = (raw as { sessionId?: unknown } | undefined)?.sessionId;
    this.viewState = {
      draft,
      ...(typeof sessionId === 'string' && sessionId ? { sessionId } : {}),
      ...(refs.length ? { references: refs } : {}),
      ...(images.success && images.data.length ? { images: images.data } : {}),
    };
  }

  post(message: Inbound): void {
    this.api.postMessage(message);
  }

  get state(): ViewState {
    return this.viewState;
  }

  saveState(patch: Partial<ViewState>): void {
    this.viewState = { ...this.viewState, ...patch };
    this.api.setState(this.viewState);
  }

  /** Listens for host messages; anything that does not match the protocol is dropped with a warning. */
  listen(onMessage: (message: Outbound, receivedAt: number) => void): () => void {
    const handler = (event: MessageEvent<unknown>): void => {
      const receivedAt = performance.now();
      const parsed = OutboundSchema.safeParse(event.data);
      if (!parsed.success) {
        console.warn('[sextant] ignored a malformed message from the host:', parsed.error.issues.slice(0, 3));
        return;
      }
      const m = parsed.data;
      if (m.type === 'snapshot' && m.snapshot.sessionId !== this.viewState.sessionId)
        this.saveState({ sessionId: m.snapshot.sessionId });
      onMessage(m, receivedAt);
    };
    window.addEventListener('message', handler);
    return () => window.removeEventListener('message', handler);
  }
}

/** A request id the host has never seen: random, so a re-created view cannot collide with itself. */
export function newRequestId(): string {
  return `req-${crypto.randomUUID()}`;
}

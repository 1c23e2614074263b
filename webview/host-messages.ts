// What each message from the host does to the view's state: one handler per outbound message type
// (a new type without one does not compile), the snapshot that replaces the chat, and the request
// events folded in by the shared reducer. The store (store.ts) holds the state and the view's own changes.
import {
  applyEnvelope,
  chatStateFromSnapshot,
  compactRequests,
  type Envelope,
  type OutboundHandlers,
  type Snapshot,
} from '../extension/protocol';
import type { ChatStore } from './store';

export function hostMessageHandlers(store: ChatStore): OutboundHandlers {
  const { changes } = store;
  return {
    snapshot: (m) => applySnapshot(store, m.snapshot),
    events: (m) => applyEvents(store, m.envelopes),
    history: (m) => {
      // The host's order is the ranking (newest first, or by relevance for a search): kept as is.
      const query = m.query ?? '';
      const offset = m.offset ?? 0;
      if (offset > 0) {
        // A later page: it extends the list it was asked for (a page of an older query is dropped).
        if (query !== store.history.query || offset > store.history.sessions.length) return;
        const sessions = [...store.history.sessions.slice(0, offset), ...m.sessions];
        store.history = { sessions, query, hasMore: m.hasMore ?? false };
        changes.mark('history');
        return;
      }
      store.history = { sessions: m.sessions, query, hasMore: m.hasMore ?? false };
      store.view = 'history';
      changes.mark('history', 'view');
    },
    mode: (m) => store.modeAnswered(m.mode),
    model: (m) => {
      store.meta = { ...store.meta, model: m.model };
      changes.mark('meta');
    },
    showView: (m) => {
      store.view = m.view;
      changes.mark('view');
    },
    promptHistory: (m) => {
      store.prompts = m.prompts;
      changes.mark('project');
    },
    projectContext: (m) => {
      store.project = m.info;
      changes.mark('project');
    },
    protocolError: (m) => {
      store.protocolError = m.error;
      // A refused rewind preview or rewind: nothing is pending any more.
      store.rewind = undefined;
      changes.mark('notice', 'panels');
    },
    rewindPreview: (m) => {
      if (store.rewind?.messageId !== m.preview.messageId) return; // cancelled meanwhile
      store.rewind = { ...store.rewind, preview: m.preview };
      changes.mark('panels');
    },
    mcpServers: (m) => {
      store.mcp = { servers: m.servers, problems: m.problems };
      changes.mark('panels');
    },
    imageData: (m) => {
      for (const id of store.images.receive(m.sha256, m.mediaType, m.dataBase64)) changes.markMessage(id);
    },
    referenceCandidates: (m) => {
      store.referenceFiles = { query: m.query, items: m.items };
      changes.mark('project');
    },
    sendRefused: (m) => {
      // Nothing was sent: the message and its chips go back into the composer, with why.
      store.protocolError = { code: 'bad_request', message: m.message, recoverable: true };
      store.draftRequest = {
        text: m.text,
        references: m.references,
        ...(m.images ? { images: m.images } : {}),
        n: (store.draftRequest?.n ?? 0) + 1,
      };
      changes.mark('notice', 'panels', 'meta');
    },
    contextUsage: (m) => {
      store.context = m.breakdown;
      changes.mark('meta', 'project');
    },
    hooks: (m) => {
      store.hooks = m.view;
      changes.mark('panels');
    },
    queued: (m) => {
      store.queued = m.items;
      changes.mark('panels');
    },
    goal: (m) => {
      store.goal = m.goal ?? undefined;
      changes.mark('panels');
    },
    rewound: (m) => {
      store.rewind = undefined;
      store.rewindNotice = m.summary;
      if (m.draft !== undefined) store.draftRequest = { text: m.draft, n: (store.draftRequest?.n ?? 0) + 1 };
      changes.mark('panels', 'meta');
    },
  };
}

/** A snapshot is the whole truth: the chat, the header and the panels are replaced. */
function applySnapshot(store: ChatStore, snapshot: Snapshot): void {
  store.forgetModeRequests(); // later mode answers, if any, are applied as they come
  if (snapshot.sessionId !== store.meta.sessionId) {
    // Another chat: a preview or notice of the previous one no longer applies.
    store.rewind = undefined;
    store.rewindNotice = undefined;
  }
  store.chat = chatStateFromSnapshot(snapshot);
  store.meta = {
    sessionId: snapshot.sessionId,
    title: snapshot.title,
    mode: snapshot.mode,
    model: snapshot.model,
    models: snapshot.models,
    modes: snapshot.modes,
    workspaceTrusted: snapshot.workspaceTrusted,
    reasoning: snapshot.reasoning ?? {},
    ...(snapshot.sandbox ? { sandbox: snapshot.sandbox } : {}),
    ...(snapshot.researchScope ? { researchScope: snapshot.researchScope } : {}),
    ...(snapshot.permissionMode ? { permissionMode: snapshot.permissionMode } : {}),
  };
  store.redo = snapshot.redo;
  store.goal = snapshot.goal;
  store.changes.forgetVersions();
  store.generation++;
  store.loaded = true;
  store.view = 'chat';
  store.changes.mark('structure', 'meta', 'panels', 'view');
}

function applyEvents(store: ChatStore, envelopes: Envelope[]): void {
  const { changes } = store;
  let ended = false;
  for (const env of envelopes) {
    const before = store.chat.messages.length;
    const changed = applyEnvelope(store.chat, env);
    if (changed === undefined) continue;
    if (store.chat.messages.length !== before) changes.mark('structure', 'meta');
    changes.markMessage(changed);
    switch (env.event.type) {
      case 'started':
        // A new request moves the chat on: the host no longer offers to undo the last rewind.
        if (store.redo || store.rewindNotice) {
          store.redo = undefined;
          store.rewindNotice = undefined;
          changes.mark('panels');
        }
        break;
      case 'approval_needed':
        store.announce(`Approval needed: ${env.event.approval.tool} ${env.event.approval.subject}`);
        changes.mark('panels');
        break;
      case 'question':
        store.announce('Sextant is asking you a question');
        changes.mark('panels');
        break;
      case 'plan_proposed':
        store.announce('Plan ready for review');
        break;
      case 'report':
        store.announce('Research report ready');
        break;
      case 'approval_resolved':
      case 'question_resolved':
      case 'todos':
        changes.mark('panels');
        break;
      case 'usage':
        changes.mark('meta'); // the header's session total
        break;
      case 'complete':
      case 'aborted':
      case 'error':
        store.announce(
          env.event.type === 'complete'
            ? 'Answer complete'
            : env.event.type === 'aborted'
              ? 'Stopped'
              : 'Request failed',
        );
        ended = true;
        changes.mark('panels', 'meta');
        break;
      default:
        break;
    }
  }
  if (ended) compactRequests(store.chat);
}

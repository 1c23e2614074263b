// Per-session tool state: created with the chat session, disposed with it (which kills its jobs).
import type { ToolSessionState } from '../types';
import { JobManager } from './jobs';

const JOBS_KEY = 'bash.jobs';

export function createToolSessionState(sessionId: string): ToolSessionState {
  return { sessionId, readFiles: new Map(), todos: [], extras: new Map() };
}

export function jobsOf(session: ToolSessionState): JobManager {
  let jobs = session.extras.get(JOBS_KEY);
  if (!(jobs instanceof JobManager)) {
    jobs = new JobManager();
    session.extras.set(JOBS_KEY, jobs);
  }
  return jobs as JobManager;
}

/** Something a tool keeps in the session's extras that must end with the session (the browser). */
export interface SessionResource {
  disposeWithSession(): void;
}

function isSessionResource(v: unknown): v is SessionResource {
  return typeof v === 'object' && v !== null && typeof (v as SessionResource).disposeWithSession === 'function';
}

/** Ends the session's tool state: kills its background jobs, closes its browser. Safe to call twice. */
export function disposeToolSession(session: ToolSessionState): void {
  const jobs = session.extras.get(JOBS_KEY);
  if (jobs instanceof JobManager) jobs.disposeAll();
  for (const v of session.extras.values()) if (isSessionResource(v)) v.disposeWithSession();
}

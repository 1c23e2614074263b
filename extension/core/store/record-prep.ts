// What a record becomes before the store journals it: image bytes moved to their files (the record keeps
// references), a new session stamped with this window's workspace, a `run_state` record with this window's
// journal writer, and secrets (key shapes and the exact stored values) redacted.
import type { ImageStorage } from '../ports';
import { createRedactor, redactDeep } from '../security/redact';
import { externalizeImages } from './image-refs';
import type { JournalRecord } from './store-contract';
import { stampWriter } from './store-runs';

export interface RecordPrepOptions {
  /** The workspace this window has open, stamped on the sessions it creates. */
  workspace?: () => string;
  /** Exact secret values to redact (read at each record: they change when a key is set). */
  secrets?: () => Iterable<string>;
}

export class RecordPrep {
  private redactorCache: { key: string; redact: ReturnType<typeof createRedactor> } | undefined;

  constructor(
    private readonly images: ImageStorage,
    private readonly writerId: string,
    private readonly o: RecordPrepOptions,
  ) {}

  /** The record as it is journaled. */
  prepare(record: JournalRecord): JournalRecord {
    return redactDeep(
      stampWriter(this.stamped(externalizeImages(record, this.images)), this.writerId),
      this.redactor(),
    );
  }

  /** The redactor for the current secret values (rebuilt only when they change). */
  private redactor() {
    const secrets = [...(this.o.secrets?.() ?? [])];
    const key = secrets.join('\u0000');
    if (this.redactorCache?.key !== key)
      this.redactorCache = { key, redact: createRedactor(secrets, { assignments: false }) };
    return this.redactorCache.redact;
  }

  /** A new session carries this window's workspace (when it has one and the record does not say). */
  private stamped(record: JournalRecord): JournalRecord {
    if (record.kind !== 'session_created' || record.workspace !== undefined) return record;
    const workspace = this.o.workspace?.();
    return workspace === undefined ? record : { ...record, workspace };
  }
}

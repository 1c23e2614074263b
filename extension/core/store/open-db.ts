// Loading the snapshot at open (and when another window wrote a newer one): checksum or SQLite
// integrity check, fall back to `.prev` when the current file is corrupt, refuse a newer schema
// before anything is written, migrate forward in memory.
import type { Logger } from '../ports';
import { registerFunctions } from './bm25';
import { migrate, NewerSchemaError, schemaVersion, SCHEMA_VERSION } from './schema';
import { dbPath, prevPath, readMeta, readSnapshotFile } from './snapshot';
import type { Database, SqlJsStatic } from './sqljs';
import { queryAll } from './sqljs';

export type Hwm = Map<string, number>;

export interface LoadedDb {
  db: Database;
  /** Which file the state came from. */
  source: 'current' | 'prev' | 'empty';
  /** Whether sextant.db on disk is a good file (so it may become `.prev` at the next snapshot). */
  currentGood: boolean;
  /**
   * Checksum recorded in the current file's sidecar when loaded ('none' without one): a change
   * means another window wrote a snapshot since.
   */
  currentKey: string;
  generation: number;
  hwm: Hwm;
  /** What the loaded file's previous snapshot covered (journal segments up to here may go). */
  prevHwm: Hwm;
  migratedFrom?: number;
}

function openChecked(SQL: SqlJsStatic, bytes: Uint8Array, check: 'ok' | 'unchecked', file: string): Database {
  const db = new SQL.Database(bytes);
  try {
    // The version is read first: a newer file is refused, never "repaired".
    const v = schemaVersion(db);
    if (v > SCHEMA_VERSION) throw new NewerSchemaError(v, SCHEMA_VERSION, file);
    if (check === 'unchecked') {
      const res = db.exec('PRAGMA integrity_check')[0]?.values[0]?.[0];
      if (res !== 'ok') throw new Error(`integrity check: ${String(res)}`);
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function readHwm(db: Database): { hwm: Hwm; prevHwm: Hwm } {
  const hwm: Hwm = new Map();
  const prevHwm: Hwm = new Map();
  for (const r of queryAll(db, 'SELECT writer, seq, prev_seq FROM journal_hwm')) {
    hwm.set(String(r.writer), Number(r.seq));
    prevHwm.set(String(r.writer), Number(r.prev_seq));
  }
  return { hwm, prevHwm };
}

/**
 * What a snapshot records about itself, read back above on the next load: its generation and, per writer,
 * the last journal record it holds (and the one the snapshot before it held), in one transaction.
 */
export function writeSnapshotMarks(db: Database, generation: number, hwm: Hwm, prevHwm: Hwm): void {
  db.exec('BEGIN');
  db.run("INSERT OR REPLACE INTO meta (key, value) VALUES ('generation', ?)", [String(generation)]);
  db.run('DELETE FROM journal_hwm');
  for (const [writer, seq] of hwm)
    db.run('INSERT INTO journal_hwm (writer, seq, prev_seq) VALUES (?, ?, ?)', [writer, seq, prevHwm.get(writer) ?? 0]);
  db.exec('COMMIT');
}

function metaGeneration(db: Database): number {
  const r = queryAll(db, "SELECT value FROM meta WHERE key = 'generation'")[0];
  return r ? Number(r.value) : 0;
}

export async function loadDatabase(SQL: SqlJsStatic, dir: string, log: Logger): Promise<LoadedDb> {
  const file = dbPath(dir);
  const currentKey = readMeta(file)?.sha256 ?? 'none';
  let db: Database | undefined;
  let source: LoadedDb['source'] = 'empty';
  let currentGood = false;
  const cur = await readSnapshotFile(file);
  if (cur === 'corrupt')
    log.warn(`store: ${file} does not match its checksum; recovering from the previous snapshot and the journal`);
  else if (cur) {
    try {
      db = openChecked(SQL, cur.bytes, cur.check, file);
      source = 'current';
      currentGood = true;
    } catch (err) {
      if (err instanceof NewerSchemaError) throw err;
      log.warn(
        `store: ${file} is unreadable (${(err as Error).message}); recovering from the previous snapshot and the ` +
          'journal',
      );
    }
  }
  if (!db) {
    const prevFile = prevPath(dir);
    const prev = await readSnapshotFile(prevFile);
    if (prev && prev !== 'corrupt') {
      try {
        db = openChecked(SQL, prev.bytes, prev.check, prevFile);
        source = 'prev';
      } catch (err) {
        if (err instanceof NewerSchemaError) throw err;
        log.warn(`store: ${prevFile} is unreadable too (${(err as Error).message})`);
      }
    } else if (prev === 'corrupt') log.warn(`store: ${prevFile} does not match its checksum either`);
  }
  if (!db) {
    if (cur) log.warn('store: no good snapshot; rebuilding from the journal alone');
    db = new SQL.Database();
  }
  const before = schemaVersion(db);
  try {
    migrate(db, file);
  } catch (err) {
    db.close();
    throw err;
  }
  registerFunctions(db);
  const { hwm, prevHwm } = readHwm(db);
  return {
    db,
    source,
    currentGood,
    currentKey,
    generation: metaGeneration(db),
    hwm,
    prevHwm,
    ...(before !== SCHEMA_VERSION && source !== 'empty' ? { migratedFrom: before } : {}),
  };
}

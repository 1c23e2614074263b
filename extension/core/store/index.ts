// The store's public surface: what the host wires up, exports and searches with.
export { openSessionStore, type ReclaimResult, type SessionStore, type SessionStoreOptions } from './store';
export type { StorageReport } from './retention';
export type { HotPolicy } from './cold-move';
export { openSessionStoreLazily, type LazySessionStore, type LazySessionStoreOptions } from './lazy-store';
export {
  exportSession,
  renderExport,
  exportFileName,
  EXPORT_EXTENSIONS,
  type ExportFormat,
  type ExportInput,
  type ExportOptions,
} from './export';
export { parseSessionExport, EXPORT_FORMAT, EXPORT_VERSION } from './export-json';
export { openAiEmbedder, type Embedder, type OpenAiEmbedderOptions } from './embeddings';
export type { MemoryHit, MemoryScope, MemorySearchOptions } from './memory-query';
export { workspaceKey } from './memory-query';
export { NewerSchemaError, SCHEMA_VERSION } from './schema';
export type { FsyncPolicy } from './journal';
export { formatBytes, purgeDeletedAfterDays, storageLines, type StorageLine } from './storage-summary';
export { storageFullNotice } from './write-failure';
export { usageRows, usageSummary, type UsageRow, type UsageRowsQuery, type UsageSummary } from './usage-query';

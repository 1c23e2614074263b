// Maps any failure of a turn to the inline error the chat shows (with Retry).
import type { ErrorInfo } from '../../protocol';
import type { ProviderError } from '../providers/types';

/** Matches by name too: each provider bundle carries its own copy of the ProviderError class. */
function isProviderError(err: unknown): err is ProviderError {
  return err instanceof Error && err.name === 'ProviderError' && 'code' in err;
}

export function toErrorInfo(err: unknown): ErrorInfo {
  if (isProviderError(err)) {
    // Every provider failure can be retried: a key can be set, a limit can pass, a server can recover.
    if (err.code === 'aborted') return { code: 'internal', message: 'The request was stopped.', recoverable: true };
    return { code: err.code, message: err.message, recoverable: true };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message: `Something went wrong in Sextant: ${message}`, recoverable: true };
}

// Maps any failure of a turn to the inline error the chat shows (with Retry).
import type { ErrorInfo } from '../../protocol';
import { isProviderError } from '../providers/errors';
import { errorText } from '../util/error-text';

export function toErrorInfo(err: unknown): ErrorInfo {
  if (isProviderError(err)) {
    // Every provider failure can be retried: a key can be set, a limit can pass, a server can recover.
    if (err.code === 'aborted') return { code: 'internal', message: 'The request was stopped.', recoverable: true };
    return { code: err.code, message: err.message, recoverable: true };
  }
  return { code: 'internal', message: `Something went wrong in Sextant: ${errorText(err)}`, recoverable: true };
}

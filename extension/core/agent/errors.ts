// Maps any failure of a turn to the inline error the chat shows (with Retry).
import type { ErrorInfo } from '../../protocol';
import { ProviderError } from '../providers/types';

export function toErrorInfo(err: unknown): ErrorInfo {
  if (err instanceof ProviderError || (err instanceof Error && err.name === 'ProviderError' && 'code' in err)) {
    const pe = err as ProviderError;
    switch (pe.code) {
      case 'no_key':
        return { code: 'no_key', message: pe.message, recoverable: true };
      case 'auth':
        return { code: 'auth', message: pe.message, recoverable: true };
      case 'rate_limit':
        return { code: 'rate_limit', message: pe.message, recoverable: true };
      case 'server':
        return { code: 'server', message: pe.message, recoverable: true };
      case 'unreachable':
        return { code: 'unreachable', message: pe.message, recoverable: true };
      case 'bad_request':
        return { code: 'bad_request', message: pe.message, recoverable: true };
      case 'aborted':
        return { code: 'internal', message: 'The request was stopped.', recoverable: true };
    }
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message: `Something went wrong in Sextant: ${message}`, recoverable: true };
}

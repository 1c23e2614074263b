// The message of anything thrown, for a log line or a user-facing sentence. One spelling of the idiom
// so every catch says the same thing about an Error, a string or anything else.
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

// The one error the fetch pipeline throws: a code for callers that branch on it and a message
// written for the model and the user (what was refused or failed, and what to do instead).

export type FetchErrorCode =
  /** Not a URL, or a URL with a user name or password in it. */
  | 'invalid_url'
  /** Not http or https. */
  | 'scheme'
  /** A private, loopback, link-local, metadata or otherwise internal address. */
  | 'blocked'
  /** The host name did not resolve. */
  | 'dns'
  | 'redirects'
  | 'timeout'
  | 'too_large'
  /** The server answered with an error status. */
  | 'http'
  /** A content type the pipeline cannot read (images, archives, …). */
  | 'unsupported'
  /** The content had no readable text. */
  | 'empty'
  | 'network'
  | 'aborted';

export class FetchError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

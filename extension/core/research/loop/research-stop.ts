// Stop that keeps what was found. The first Stop of a research run that has read pages does not abort
// it: it ends the gathering, and the run writes a short report from the pages read so far, marked
// partial. A second Stop (or a first one before any page was read, or once the report is being
// written) aborts as Stop always does. The controller holds this switch; the run says when it would
// take a Stop.
export class ResearchStop {
  private readonly requested = new AbortController();
  private takes: () => boolean = () => false;

  /** Aborted when the run took a Stop: gathering ends and the partial report is written. */
  get signal(): AbortSignal {
    return this.requested.signal;
  }

  /** The run's answer to "would a Stop now still give a report?" (pages read, no report being written). */
  accept(takes: () => boolean): void {
    this.takes = takes;
  }

  /** The user's Stop: true when the run takes it (it will end itself with a partial report); false: abort. */
  request(): boolean {
    if (this.requested.signal.aborted || !this.takes()) return false;
    this.requested.abort();
    return true;
  }
}

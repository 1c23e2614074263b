// Steering a running request: messages the user sends while it works, delivered at its next step
// boundary — before the next model call, never in the middle of a tool call (a step's tools all end
// first). An agent turn takes them as user messages the model sees in its next request; a research
// run takes them as an addition to its brief. The request runner holds one inbox per request.

export interface SteerSource {
  /** The messages waiting, oldest first; taking them empties the inbox. */
  take(): string[];
  /** Whether any is waiting (a turn about to end goes on to deliver it). */
  pending(): boolean;
}

export class SteerInbox implements SteerSource {
  private readonly waiting: string[] = [];

  add(text: string): void {
    this.waiting.push(text);
  }

  take(): string[] {
    return this.waiting.splice(0);
  }

  pending(): boolean {
    return this.waiting.length > 0;
  }
}

/** The notice a steer leaves in the answer where it was delivered (stored, replayed and exported). */
export function steerNotice(text: string): string {
  return `Steered: ${text}`;
}

// Keeps a command's whole output for paging (bash_output), bounded: past `maxChars` the first
// `headChars` and the most recent rest are kept and the middle is counted as dropped.

export class OutputBuffer {
  private head = '';
  private tail = '';
  private dropped = 0;
  /** Characters ever appended (offsets below are in this absolute space). */
  total = 0;

  constructor(
    private readonly maxChars = 8_000_000,
    private readonly headChars = 1_000_000,
  ) {}

  append(s: string): void {
    if (s === '') return;
    this.total += s.length;
    if (this.dropped === 0 && this.head.length + s.length <= this.maxChars) {
      this.head += s;
      return;
    }
    if (this.dropped === 0 && this.tail === '') {
      // First overflow: split what we have into head + tail.
      const all = this.head + s;
      this.head = all.slice(0, this.headChars);
      this.tail = all.slice(this.headChars);
    } else this.tail += s;
    const room = this.maxChars - this.head.length;
    if (this.tail.length > room) {
      this.dropped += this.tail.length - room;
      this.tail = this.tail.slice(this.tail.length - room);
    }
  }

  /** Output from absolute offset `from` to the end, with a marker where the middle was dropped. */
  sliceFrom(from: number): string {
    const tailStart = this.total - this.tail.length;
    if (this.dropped === 0) return (this.head + this.tail).slice(from);
    if (from < this.head.length) return this.head.slice(from) + this.marker() + this.tail;
    if (from < tailStart) return this.marker() + this.tail;
    return this.tail.slice(from - tailStart);
  }

  /** Everything kept, as one text. */
  text(): string {
    return this.sliceFrom(0);
  }

  get droppedChars(): number {
    return this.dropped;
  }

  private marker(): string {
    return `\n… [${this.dropped} characters of output were not kept] …\n`;
  }
}

// Bytes an attempt moved: counted into the job as they go (smooth progress), and kept, or taken
// back as one when the attempt fails (they did not stay sent, or the file they went into is gone).
//
// One counter per attempt, nested where attempts are: an object's attempt holds its requests'
// (a part sent again takes back only its own bytes; a file that fails in the end, all of its own).

export class AttemptBytes {
  private counted = 0;
  private readonly into: (bytes: number) => void;

  /** `into`: where the bytes count as they go (the job, or the attempt this one is part of). */
  constructor(into: (bytes: number) => void) {
    this.into = into;
  }

  add(bytes: number): void {
    if (bytes === 0) return;
    this.counted += bytes;
    this.into(bytes);
  }

  /** An attempt within this one, whose bytes count into it. */
  attempt(): AttemptBytes {
    return new AttemptBytes((bytes) => this.add(bytes));
  }

  /** The attempt failed: everything it counted comes back off. */
  drop(): void {
    const back = this.counted;
    this.counted = 0;
    if (back !== 0) this.into(-back);
  }

  /** Run `work` as this attempt: its bytes stay if it succeeds, and come back off if it throws. */
  async keepIf<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      this.drop();
      throw error;
    }
  }
}

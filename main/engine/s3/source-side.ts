// Which store an error came from, in a copy between two connections.
//
// A copy between connections reads one store and writes another, and both answer in the same words
// ("Access denied to s3://b/k"): the buckets may even share a name. The reads of the source mark
// what they throw, so the job can say which side refused ("On the source connection …") and the
// operator fixes the right credentials.

const fromTheSource = new WeakSet<object>();

/** `work`, with what it throws marked as the source's. */
export async function onSource<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (typeof error === 'object' && error !== null) fromTheSource.add(error);
    throw error;
  }
}

/** Whether an error was thrown by a read of the source (onSource). */
export function isFromSource(error: unknown): boolean {
  return typeof error === 'object' && error !== null && fromTheSource.has(error);
}

// Whether a path lies on a local file system (Linux, statfs f_type, from linux/magic.h).
//
// There a stat or a read of a small cached file takes microseconds, so it may be made on the event loop,
// which is cheaper than a trip through the thread pool. On a network or FUSE file system (NFS, SMB, sshfs,
// a cloud mount) a stat may wait on the network, or hang with the mount: there the pool is used, and the
// loop (progress, cancel, every other job) never waits. Other platforms always use the pool.

import { statfs } from 'node:fs/promises';

const LOCAL_FILE_SYSTEMS: ReadonlySet<number> = new Set([
  0xef53, // ext2/3/4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
  0x794c7630, // overlayfs (containers)
  0x2fc12fc1, // zfs
  0xf2f52010, // f2fs
]);

export function onLocalFileSystem(path: string): Promise<boolean> {
  if (process.platform !== 'linux') return Promise.resolve(false);
  return statfs(path).then(
    (info) => LOCAL_FILE_SYSTEMS.has(info.type),
    () => false,
  );
}

#ifndef C_PASTEBOARD_SYSTEM_H
#define C_PASTEBOARD_SYSTEM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// The credentials of a Unix socket's peer, laid out as Linux's `struct ucred`
/// (which glibc only declares under _GNU_SOURCE, out of Swift's sight).
typedef struct {
    int32_t pid;
    uint32_t uid;
    uint32_t gid;
} pasteboard_ucred;

/// The `SOL_SOCKET` option name that reads a `pasteboard_ucred` (SO_PEERCRED).
int pasteboard_so_peercred(void);

/// Reads the peer credentials of a connected Unix socket. Returns 0, or -1 with errno set.
int pasteboard_peer_credentials(int fd, pasteboard_ucred *out);

/// Starts `path` with `argv` and `envp` in a new session (setsid), detached from the caller's
/// terminal: stdin from /dev/null, stdout to /dev/null, stderr to `stderr_fd` (or /dev/null
/// when negative), and no other descriptor. Returns the child's pid, or -1 with errno set.
pid_t pasteboard_spawn_detached(const char *path, char *const argv[], char *const envp[], int stderr_fd);

/// Starts `path` with `argv` and `envp` in a new session (setsid), as `pasteboard_spawn_detached`
/// does, but with `stdin_fd`, `stdout_fd` and `stderr_fd` as its standard descriptors (each
/// /dev/null when negative), and no other descriptor. A background server started this way reads
/// its input from a pipe and reports that it is ready through another. Either way the child
/// starts with no signal blocked and SIGINT, SIGTERM, SIGHUP and SIGQUIT at their default (a
/// caller on a thread that blocks signals, or run in the background by a shell, would otherwise
/// pass on a child that never sees SIGTERM). Returns the child's pid, or -1 with errno set.
pid_t pasteboard_spawn_background(const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd, int stderr_fd);

/// Starts `path` with `argv` and `envp` as a child that shares the caller's stdout, stderr and
/// process group: stdin from `stdin_fd`, no other descriptor, an empty signal mask, and the
/// default action for SIGPIPE, SIGINT, SIGTERM, SIGHUP and SIGQUIT. With `lifeline_fd` (not
/// negative), that descriptor becomes the child's descriptor 3: the read end of a pipe whose
/// write end only the caller holds, so the child sees end-of-file when the caller exits however it
/// exits (unlike PR_SET_PDEATHSIG, which follows the spawning thread and is armed only after exec).
/// Returns the child's pid, or -1 with errno set (ENOENT, EACCES, ENOEXEC when the program cannot
/// be started).
pid_t pasteboard_spawn_child(const char *path, char *const argv[], char *const envp[], int stdin_fd, int lifeline_fd);

/// Catches SIGINT and SIGTERM from now on: each one writes its number as one byte to a pipe
/// (async-signal-safe) instead of ending the process. Returns the pipe's read end (the same on
/// every call), or -1 with errno set.
int pasteboard_catch_interrupts(void);

/// Unblocks SIGINT and SIGTERM on the calling thread. A command-line program calls it first
/// thing on its main thread (which then only waits, and takes the signals): a parent that starts
/// it from a thread blocking them (a thread of Swift's pool, through Foundation's Process) passes
/// that mask on, and the program would never see SIGINT or SIGTERM, caught or not.
void pasteboard_unblock_interrupts(void);

/* Asks the kernel to send SIGTERM to this process when its parent exits, then checks that the
   parent is still `expected_parent`: 0, or -1 when it already exited (or prctl failed). A child
   the daemon starts (the desktop bridge) dies with the daemon, even one killed with SIGKILL. */
int pasteboard_exit_with_parent(pid_t expected_parent);

/// Continues the CRC-32 (IEEE 802.3, as zlib's crc32) `crc` over `count` bytes; start with 0.
uint32_t pasteboard_crc32(uint32_t crc, const void *bytes, size_t count);

/// Opens a Unix stream socket (close-on-exec) at `path`: listening with `backlog` when it is 0
/// or more (bound at `path`), else connected to `path`. Returns the descriptor, or -1 with
/// errno set (ENAMETOOLONG for a path too long for sockaddr_un).
int pasteboard_unix_socket(const char *path, int backlog);

/// Sends `length` bytes of `payload` on the Unix socket `socket` with the descriptor `fd`
/// attached (SCM_RIGHTS), without blocking and without SIGPIPE. Returns the bytes sent, or -1
/// with errno set (EAGAIN when the peer's receive buffer is full).
ssize_t pasteboard_send_descriptor(int socket, const void *payload, size_t length, int fd);

/// Receives up to `capacity` bytes from the Unix socket `socket` into `payload`, and the
/// descriptor attached to them, if any, into `*fd` (-1 when none; close-on-exec is set).
/// `flags` are recvmsg's (MSG_DONTWAIT to not block). Returns the bytes received, 0 at end of
/// stream, or -1 with errno set.
ssize_t pasteboard_receive_descriptor(int socket, void *payload, size_t capacity, int *fd, int flags);

/// Creates a connected pair of Unix stream sockets (close-on-exec) for a one-way transfer:
/// `fds[0]` only sends and `fds[1]` only receives (each is shut down the other way), with
/// socket buffers of `buffer` bytes. Returns 0, or -1 with errno set.
int pasteboard_make_transfer_pair(int fds[2], int buffer);

/// Sends up to `length` bytes of the file `file`, from its current offset, into `out` inside
/// the kernel: copy_file_range when `out` is a regular file (the filesystem's own copy, as cat
/// does), else sendfile (a pipe, a socket). Returns the bytes sent, 0 at end of file, or -1
/// with errno set: EINVAL when the kernel cannot copy into `out` (an O_APPEND file), where the
/// caller reads and writes instead.
ssize_t pasteboard_send_file(int out, int file, size_t length);

/// Ignores SIGPIPE from now on, so a write into a pipe whose reader left fails with EPIPE
/// instead of ending the process.
void pasteboard_ignore_sigpipe(void);

/// The most descriptors `pasteboard_send_descriptors` / `pasteboard_receive_descriptors` pass
/// with one call (libwayland's limit for one flush is 28).
#define PASTEBOARD_MAX_DESCRIPTORS 28

/// Sends `length` bytes of `payload` on the Unix socket `socket` with the `count` descriptors of
/// `fds` attached (SCM_RIGHTS; none when `count` is 0), blocking, without SIGPIPE. For protocols
/// whose messages carry several descriptors (Wayland). Returns the bytes sent, or -1 with errno
/// set (EINVAL when `count` is above PASTEBOARD_MAX_DESCRIPTORS).
ssize_t pasteboard_send_descriptors(int socket, const void *payload, size_t length, const int *fds, size_t count);

/// Receives up to `capacity` bytes from the Unix socket `socket` into `payload`, and up to
/// `fd_capacity` attached descriptors into `fds` (close-on-exec), their number into `*fd_count`;
/// descriptors beyond `fd_capacity` are closed, not leaked. `flags` are recvmsg's. Returns the
/// bytes received, 0 at end of stream, or -1 with errno set.
ssize_t pasteboard_receive_descriptors(int socket, void *payload, size_t capacity, int *fds, size_t fd_capacity, size_t *fd_count, int flags);

/// pipe2(2), out of Swift's sight without _GNU_SOURCE: a pipe whose ends are created with
/// `flags` (O_CLOEXEC, O_NONBLOCK) atomically, so no child spawned meanwhile inherits them.
int pasteboard_pipe(int fds[2], int flags);

/// write(2) that cannot raise SIGPIPE, for pipes, where send's MSG_NOSIGNAL does not apply:
/// SIGPIPE is blocked in the calling thread for the call, and the one a write into a pipe
/// whose reader left raises is taken back (sigtimedwait) unless one was pending before, so the
/// write fails with EPIPE whatever the process's SIGPIPE disposition, and no other thread's
/// mask or the process's handler changes. Retries EINTR. Returns the bytes written, or -1
/// with errno set (EAGAIN on a full non-blocking pipe, EPIPE when the reader left).
ssize_t pasteboard_write_nosigpipe(int fd, const void *bytes, size_t count);

/// Opens an unnamed regular file (O_TMPFILE, mode 0600, read-write, close-on-exec) in the
/// directory `dirfd`: it has no name until `pasteboard_link_tmpfile`, so a crash or a close
/// before that leaves nothing on disk. Returns the descriptor, or -1 with errno set
/// (EOPNOTSUPP or EISDIR where the filesystem or kernel has no O_TMPFILE).
int pasteboard_open_tmpfile(int dirfd);

/// Gives the O_TMPFILE file `fd` the name `name` in the directory `dirfd`, by
/// linkat(AT_FDCWD, "/proc/self/fd/N", dirfd, name, AT_SYMLINK_FOLLOW), which needs no
/// CAP_DAC_READ_SEARCH (unlike AT_EMPTY_PATH). Returns 0, or -1 with errno set (EEXIST when
/// the name is taken).
int pasteboard_link_tmpfile(int fd, int dirfd, const char *name);

/// copy_file_range(2): copies up to `length` bytes from `in` at `*in_offset` to `out` at
/// `*out_offset` inside the kernel, advancing both offsets (not the files' own). Returns the
/// bytes copied, 0 at the end of `in`, or -1 with errno set (EXDEV, EINVAL, ENOSYS where the
/// kernel or filesystem pair cannot; the caller falls back to read/write).
ssize_t pasteboard_copy_file_range(int in, int64_t *in_offset, int out, int64_t *out_offset, size_t length);

/// Makes `out` share the blocks of all of `in` (ioctl FICLONE, a reflink on btrfs and XFS).
/// Returns 0, or -1 with errno set (EOPNOTSUPP on ext4, EXDEV across filesystems).
int pasteboard_clone_file(int out, int in);

/// Starts the writeback of `length` bytes of `fd` from `offset` without waiting for it
/// (sync_file_range with SYNC_FILE_RANGE_WRITE), so the fdatasync that follows has little
/// left to do. Returns 0, or -1 with errno set.
int pasteboard_sync_file_range_write(int fd, int64_t offset, int64_t length);

/// The bytes an unprivileged user may still write on the filesystem of `fd` (fstatvfs:
/// f_bavail × f_frsize, saturated at INT64_MAX), into `*out`. Returns 0, or -1 with errno set.
int pasteboard_free_bytes(int fd, int64_t *out);

/// Asks for the pipe `fd` to hold `size` bytes (F_SETPIPE_SZ): a reader that takes large
/// chunks then wakes its writer a sixteenth as often as with the default 64 KiB. Returns the
/// new size, or -1 with errno set (not a pipe, or more than /proc/sys/fs/pipe-max-size).
int pasteboard_grow_pipe(int fd, int size);

/// A new anonymous memory file of `size` bytes (memfd_create, close-on-exec), for pixels a
/// Wayland compositor maps (wl_shm): no path, so nothing is left behind and no other process
/// can open it. Returns the descriptor, or -1 with errno set.
int pasteboard_memory_file(const char *name, int64_t size);

#endif

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

/// Catches SIGINT and SIGTERM from now on: each one writes its number as one byte to a pipe
/// (async-signal-safe) instead of ending the process. Returns the pipe's read end (the same on
/// every call), or -1 with errno set.
int pasteboard_catch_interrupts(void);

/// Continues the CRC-32 (IEEE 802.3, as zlib's crc32) `crc` over `count` bytes; start with 0.
uint32_t pasteboard_crc32(uint32_t crc, const void *bytes, size_t count);

#endif

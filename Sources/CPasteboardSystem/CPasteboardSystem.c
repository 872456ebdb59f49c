#define _GNU_SOURCE
#include "CPasteboardSystem.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
#include <linux/fs.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int pasteboard_so_peercred(void) {
    return SO_PEERCRED;
}

int pasteboard_peer_credentials(int fd, pasteboard_ucred *out) {
    struct ucred cred;
    socklen_t len = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
        return -1;
    }
    out->pid = cred.pid;
    out->uid = cred.uid;
    out->gid = cred.gid;
    return 0;
}

/* Initialises the file actions and attributes of a spawn; -1 with errno on failure. */
static int spawn_prepare(posix_spawn_file_actions_t *actions, posix_spawnattr_t *attr) {
    int rc = posix_spawn_file_actions_init(actions);
    if (rc == 0 && (rc = posix_spawnattr_init(attr)) != 0) posix_spawn_file_actions_destroy(actions);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    return 0;
}

/* Spawns with the prepared actions and attributes, then releases them; the pid, or -1 with errno. */
static pid_t spawn_finish(const char *path, char *const argv[], char *const envp[],
                          posix_spawn_file_actions_t *actions, posix_spawnattr_t *attr) {
    pid_t pid = -1;
    int rc = posix_spawn(&pid, path, actions, attr, argv, envp);
    posix_spawn_file_actions_destroy(actions);
    posix_spawnattr_destroy(attr);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    return pid;
}

pid_t pasteboard_spawn_detached(const char *path, char *const argv[], char *const envp[], int stderr_fd) {
    /* Inherit nothing but stderr: a daemon holding a caller's pipe would keep `pb copy | cat`
       or a test harness waiting for an EOF that never comes. */
    return pasteboard_spawn_background(path, argv, envp, -1, -1, stderr_fd);
}

pid_t pasteboard_spawn_background(const char *path, char *const argv[], char *const envp[], int stdin_fd, int stdout_fd, int stderr_fd) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    sigset_t signals;
    const int given[3] = {stdin_fd, stdout_fd, stderr_fd};

    if (spawn_prepare(&actions, &attr) != 0) return -1;
    for (int target = 0; target < 3; target++) {
        if (given[target] >= 0) {
            posix_spawn_file_actions_adddup2(&actions, given[target], target);
        } else {
            posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0);
        }
    }
    /* No descriptor of the caller's but these three. */
    posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    /* The caller is often a thread of Swift's pool, which blocks every signal, and a shell runs a
       background job with SIGINT and SIGQUIT ignored: the new process would inherit both and never
       see SIGTERM or SIGINT. It starts with none blocked and these at their default instead. */
    sigemptyset(&signals);
    posix_spawnattr_setsigmask(&attr, &signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGHUP);
    sigaddset(&signals, SIGQUIT);
    posix_spawnattr_setsigdefault(&attr, &signals);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    return spawn_finish(path, argv, envp, &actions, &attr);
}

pid_t pasteboard_spawn_child(const char *path, char *const argv[], char *const envp[], int stdin_fd, int lifeline_fd) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    sigset_t signals;

    if (spawn_prepare(&actions, &attr) != 0) return -1;
    posix_spawn_file_actions_adddup2(&actions, stdin_fd, 0);
    /* The lifeline's read end becomes descriptor 3 (dup2 clears its close-on-exec flag). */
    if (lifeline_fd >= 0) posix_spawn_file_actions_adddup2(&actions, lifeline_fd, 3);
    /* The caller's connection to the daemon and its event loops are not the child's business. */
    posix_spawn_file_actions_addclosefrom_np(&actions, lifeline_fd >= 0 ? 4 : 3);
    sigemptyset(&signals);
    posix_spawnattr_setsigmask(&attr, &signals);
    sigaddset(&signals, SIGPIPE);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGHUP);
    sigaddset(&signals, SIGQUIT);
    posix_spawnattr_setsigdefault(&attr, &signals);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);

    return spawn_finish(path, argv, envp, &actions, &attr);
}

static int interrupt_pipe[2] = {-1, -1};

static void interrupt_handler(int signal_number) {
    int saved = errno;
    unsigned char byte = (unsigned char)signal_number;
    ssize_t ignored = write(interrupt_pipe[1], &byte, 1);
    (void)ignored;
    errno = saved;
}

int pasteboard_catch_interrupts(void) {
    if (interrupt_pipe[0] < 0) {
        if (pipe2(interrupt_pipe, O_CLOEXEC) != 0) return -1;
        fcntl(interrupt_pipe[0], F_SETFL, O_NONBLOCK);
        fcntl(interrupt_pipe[1], F_SETFL, O_NONBLOCK);
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = interrupt_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(SIGINT, &action, NULL) != 0 || sigaction(SIGTERM, &action, NULL) != 0) return -1;
    return interrupt_pipe[0];
}

void pasteboard_unblock_interrupts(void) {
    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &signals, NULL);
}

int pasteboard_exit_with_parent(pid_t expected_parent) {
    if (prctl(PR_SET_PDEATHSIG, SIGTERM) != 0) return -1;
    return getppid() == expected_parent ? 0 : -1;
}

static uint32_t crc_table[8][256];
static pthread_once_t crc_once = PTHREAD_ONCE_INIT;

static void crc_init(void) {
    for (uint32_t index = 0; index < 256; index++) {
        uint32_t c = index;
        for (int bit = 0; bit < 8; bit++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        crc_table[0][index] = c;
    }
    for (uint32_t index = 0; index < 256; index++) {
        for (int slice = 1; slice < 8; slice++) {
            uint32_t previous = crc_table[slice - 1][index];
            crc_table[slice][index] = (previous >> 8) ^ crc_table[0][previous & 0xFF];
        }
    }
}

/* Slicing-by-8: eight table look-ups per 8 bytes. */
uint32_t pasteboard_crc32(uint32_t crc, const void *bytes, size_t count) {
    pthread_once(&crc_once, crc_init);
    const uint8_t *p = bytes;
    crc = ~crc;
    while (count >= 8) {
        uint32_t low = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        uint32_t high = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
        crc = crc_table[7][low & 0xFF] ^ crc_table[6][(low >> 8) & 0xFF] ^ crc_table[5][(low >> 16) & 0xFF]
            ^ crc_table[4][low >> 24] ^ crc_table[3][high & 0xFF] ^ crc_table[2][(high >> 8) & 0xFF]
            ^ crc_table[1][(high >> 16) & 0xFF] ^ crc_table[0][high >> 24];
        p += 8;
        count -= 8;
    }
    while (count--) crc = crc_table[0][(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return ~crc;
}

int pasteboard_make_transfer_pair(int fds[2], int buffer) {
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
        return -1;
    }
    setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &buffer, sizeof(buffer));
    setsockopt(fds[1], SOL_SOCKET, SO_RCVBUF, &buffer, sizeof(buffer));
    shutdown(fds[0], SHUT_RD);
    shutdown(fds[1], SHUT_WR);
    return 0;
}

ssize_t pasteboard_send_file(int out, int file, size_t length) {
    ssize_t sent;
    struct stat info;
    /* Into a regular file, copy_file_range: the filesystem's own copy (a reflink where it has
       them), as cat does. Where it cannot (an O_APPEND file, another filesystem on old kernels),
       EINVAL tells the caller to read and write: sendfile into a file is a third as fast. */
    if (fstat(out, &info) == 0 && S_ISREG(info.st_mode)) {
        do {
            sent = copy_file_range(file, NULL, out, NULL, length, 0);
        } while (sent < 0 && errno == EINTR);
        if (sent < 0 && (errno == EXDEV || errno == EBADF || errno == ENOSYS || errno == EOPNOTSUPP)) errno = EINVAL;
        return sent;
    }
    do {
        sent = sendfile(out, file, NULL, length);
    } while (sent < 0 && errno == EINTR);
    return sent;
}

ssize_t pasteboard_write_nosigpipe(int fd, const void *bytes, size_t count) {
    sigset_t pipe_only, previous, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    sigemptyset(&pending);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);
    int status = pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);
    if (status != 0) {
        errno = status;
        return -1;
    }
    ssize_t written;
    do {
        written = write(fd, bytes, count);
    } while (written < 0 && errno == EINTR);
    int saved = errno;
    if (written < 0 && saved == EPIPE && !was_pending) {
        // The SIGPIPE this write raised is pending on this thread (blocked): take it back.
        const struct timespec zero = {0, 0};
        while (sigtimedwait(&pipe_only, NULL, &zero) < 0 && errno == EINTR) {
        }
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    errno = saved;
    return written;
}

void pasteboard_ignore_sigpipe(void) {
    signal(SIGPIPE, SIG_IGN);
}

int pasteboard_unix_socket(const char *path, int backlog) {
    struct sockaddr_un address;
    memset(&address, 0, sizeof(address));
    address.sun_family = AF_UNIX;
    if (strlen(path) >= sizeof(address.sun_path)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(address.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return -1;
    }
    int result;
    if (backlog >= 0) {
        result = bind(fd, (struct sockaddr *)&address, sizeof(address));
        if (result == 0) {
            result = listen(fd, backlog);
        }
    } else {
        do {
            result = connect(fd, (struct sockaddr *)&address, sizeof(address));
        } while (result != 0 && errno == EINTR);
    }
    if (result != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

/// sendmsg of `payload` with `count` descriptors attached and `flags` (MSG_NOSIGNAL always), retried on EINTR.
static ssize_t send_with_descriptors(int socket, const void *payload, size_t length, const int *fds, size_t count, int flags) {
    if (count > PASTEBOARD_MAX_DESCRIPTORS) {
        errno = EINVAL;
        return -1;
    }
    struct iovec iov = { .iov_base = (void *)payload, .iov_len = length };
    union { struct cmsghdr header; char space[CMSG_SPACE(sizeof(int) * PASTEBOARD_MAX_DESCRIPTORS)]; } control;
    memset(&control, 0, sizeof(control));
    struct msghdr message = { 0 };
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    if (count > 0) {
        message.msg_control = control.space;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * count);
        memcpy(CMSG_DATA(header), fds, sizeof(int) * count);
    }
    ssize_t sent;
    do {
        sent = sendmsg(socket, &message, flags | MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent;
}

ssize_t pasteboard_send_descriptors(int socket, const void *payload, size_t length, const int *fds, size_t count) {
    return send_with_descriptors(socket, payload, length, fds, count, 0);
}

ssize_t pasteboard_send_descriptor(int socket, const void *payload, size_t length, int fd) {
    return send_with_descriptors(socket, payload, length, &fd, 1, MSG_DONTWAIT);
}

ssize_t pasteboard_receive_descriptors(int socket, void *payload, size_t capacity, int *fds, size_t fd_capacity, size_t *fd_count, int flags) {
    struct iovec iov = { .iov_base = payload, .iov_len = capacity };
    union { struct cmsghdr header; char space[CMSG_SPACE(sizeof(int) * PASTEBOARD_MAX_DESCRIPTORS)]; } control;
    struct msghdr message = { 0 };
    message.msg_iov = &iov;
    message.msg_iovlen = 1;
    message.msg_control = control.space;
    message.msg_controllen = sizeof(control.space);
    *fd_count = 0;
    ssize_t received;
    do {
        received = recvmsg(socket, &message, flags | MSG_CMSG_CLOEXEC);
    } while (received < 0 && errno == EINTR);
    if (received < 0) {
        return -1;
    }
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) {
            continue;
        }
        size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        int received_fd;
        for (size_t index = 0; index < count; index++) {
            memcpy(&received_fd, CMSG_DATA(header) + index * sizeof(int), sizeof(int));
            if (*fd_count < fd_capacity) {
                fds[(*fd_count)++] = received_fd;
            } else {
                close(received_fd);
            }
        }
    }
    return received;
}

ssize_t pasteboard_receive_descriptor(int socket, void *payload, size_t capacity, int *fd, int flags) {
    // One descriptor per message is the hand-off's protocol; any extra one is closed, not leaked.
    size_t count = 0;
    *fd = -1;
    return pasteboard_receive_descriptors(socket, payload, capacity, fd, 1, &count, flags);
}

int pasteboard_pipe(int fds[2], int flags) {
    return pipe2(fds, flags);
}

int pasteboard_open_tmpfile(int dirfd) {
    return openat(dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
}

int pasteboard_link_tmpfile(int fd, int dirfd, const char *name) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    return linkat(AT_FDCWD, path, dirfd, name, AT_SYMLINK_FOLLOW);
}

ssize_t pasteboard_copy_file_range(int in, int64_t *in_offset, int out, int64_t *out_offset, size_t length) {
    off_t in_off = (off_t)*in_offset;
    off_t out_off = (off_t)*out_offset;
    ssize_t copied;
    do {
        copied = copy_file_range(in, &in_off, out, &out_off, length, 0);
    } while (copied < 0 && errno == EINTR);
    if (copied > 0) {
        *in_offset = (int64_t)in_off;
        *out_offset = (int64_t)out_off;
    }
    return copied;
}

int pasteboard_clone_file(int out, int in) {
    return ioctl(out, FICLONE, in);
}

int pasteboard_sync_file_range_write(int fd, int64_t offset, int64_t length) {
    return sync_file_range(fd, (off_t)offset, (off_t)length, SYNC_FILE_RANGE_WRITE);
}

int pasteboard_free_bytes(int fd, int64_t *out) {
    struct statvfs info;
    if (fstatvfs(fd, &info) != 0) {
        return -1;
    }
    uint64_t blocks = (uint64_t)info.f_bavail;
    uint64_t size = (uint64_t)info.f_frsize;
    if (size != 0 && blocks > (uint64_t)INT64_MAX / size) {
        *out = INT64_MAX;
    } else {
        *out = (int64_t)(blocks * size);
    }
    return 0;
}

int pasteboard_grow_pipe(int fd, int size) {
    return fcntl(fd, F_SETPIPE_SZ, size);
}

int pasteboard_memory_file(const char *name, int64_t size) {
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)size) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

// Fork/exec with a controlling terminal: the part Swift cannot do safely.
// Everything between fork() and execve() below is async-signal-safe.

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "CHarnessShims.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

#if !defined(__linux__)
static int set_cloexec(int fd) {
    int flags = fcntl(fd, F_GETFD);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}
#endif

int harness_open_pty(int *master_fd, int *slave_fd,
                     unsigned short cols, unsigned short rows,
                     const char **failed_operation) {
    int saved;
#if defined(__linux__)
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
#else
    int master = posix_openpt(O_RDWR | O_NOCTTY);
#endif
    if (master < 0) { *failed_operation = "posix_openpt"; return errno; }
#if !defined(__linux__)
    if (set_cloexec(master) != 0) { saved = errno; *failed_operation = "fcntl(FD_CLOEXEC)"; close(master); return saved; }
#endif
    if (grantpt(master) != 0) { saved = errno; *failed_operation = "grantpt"; close(master); return saved; }
    if (unlockpt(master) != 0) { saved = errno; *failed_operation = "unlockpt"; close(master); return saved; }

    char name[128];
    if (ptsname_r(master, name, sizeof name) != 0) {
        saved = errno; *failed_operation = "ptsname_r"; close(master); return saved;
    }
#if defined(__linux__)
    int slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
#else
    int slave = open(name, O_RDWR | O_NOCTTY);
#endif
    if (slave < 0) { saved = errno; *failed_operation = "open(pty slave)"; close(master); return saved; }
#if !defined(__linux__)
    if (set_cloexec(slave) != 0) { saved = errno; *failed_operation = "fcntl(FD_CLOEXEC)"; close(slave); close(master); return saved; }
#endif

    struct termios attributes;
    if (tcgetattr(slave, &attributes) == 0) {
#ifdef IUTF8
        attributes.c_iflag |= IUTF8;
#endif
        (void)tcsetattr(slave, TCSANOW, &attributes);
    }

    struct winsize size;
    memset(&size, 0, sizeof size);
    size.ws_col = cols;
    size.ws_row = rows;
    if (ioctl(master, TIOCSWINSZ, &size) != 0) {
        saved = errno; *failed_operation = "ioctl(TIOCSWINSZ)"; close(slave); close(master); return saved;
    }
    *master_fd = master;
    *slave_fd = slave;
    return 0;
}

// --- child side: async-signal-safe only -------------------------------------

static void write_failure_and_exit(int report_fd, int step) {
    int message[2] = { step, errno };
    const char *cursor = (const char *)message;
    size_t left = sizeof message;
    while (left > 0) {
        ssize_t written = write(report_fd, cursor, left);
        if (written < 0) {
            if (errno == EINTR) continue;
            break;
        }
        cursor += written;
        left -= (size_t)written;
    }
    _exit(127);
}

static void close_descriptors_from(int first, int keep, int max_fd) {
#if defined(__linux__) && defined(SYS_close_range)
    // close_range(first, keep - 1) and close_range(keep + 1, ~0U).
    int ok = 1;
    if (keep > first) {
        if (syscall(SYS_close_range, (unsigned)first, (unsigned)(keep - 1), 0) != 0) ok = 0;
    }
    if (ok && syscall(SYS_close_range, (unsigned)(keep + 1), ~0U, 0) == 0) return;
#endif
    for (int fd = first; fd <= max_fd; fd++) {
        if (fd != keep) (void)close(fd);
    }
}

static void run_child(const char *path, char *const argv[], char *const envp[],
                      const char *working_directory, int slave_fd, int report_fd,
                      int max_fd) {
    // Default dispositions for every signal, then an empty mask.
    struct sigaction default_action;
    memset(&default_action, 0, sizeof default_action);
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    for (int signal_number = 1; signal_number < NSIG; signal_number++) {
        if (signal_number == SIGKILL || signal_number == SIGSTOP) continue;
        (void)sigaction(signal_number, &default_action, NULL);
    }
    sigset_t empty;
    sigemptyset(&empty);
    (void)sigprocmask(SIG_SETMASK, &empty, NULL);

    if (setsid() < 0) write_failure_and_exit(report_fd, HARNESS_SPAWN_STEP_SETSID);
    if (ioctl(slave_fd, TIOCSCTTY, 0) != 0) write_failure_and_exit(report_fd, HARNESS_SPAWN_STEP_CONTROLLING_TERMINAL);

    // Keep the report pipe away from 0, 1 and 2.
    if (report_fd <= 2) {
        int moved = fcntl(report_fd, F_DUPFD_CLOEXEC, 3);
        if (moved < 0) _exit(127);
        report_fd = moved;
    }
    if (slave_fd <= 2) {
        int moved = fcntl(slave_fd, F_DUPFD_CLOEXEC, 3);
        if (moved < 0) write_failure_and_exit(report_fd, HARNESS_SPAWN_STEP_DUP2);
        slave_fd = moved;
    }
    for (int target = 0; target <= 2; target++) {
        while (dup2(slave_fd, target) < 0) {
            if (errno != EINTR) write_failure_and_exit(report_fd, HARNESS_SPAWN_STEP_DUP2);
        }
    }
    close_descriptors_from(3, report_fd, max_fd);

    if (working_directory != NULL && chdir(working_directory) != 0) {
        write_failure_and_exit(report_fd, HARNESS_SPAWN_STEP_CHDIR);
    }
    execve(path, argv, envp);
    write_failure_and_exit(report_fd, HARNESS_SPAWN_STEP_EXECVE);
}

// --- parent side -------------------------------------------------------------

int harness_spawn_in_pty(const char *path,
                         char *const argv[],
                         char *const envp[],
                         const char *working_directory,
                         int slave_fd,
                         pid_t *pid,
                         int *failed_step) {
    int report[2];
    int saved;
#if defined(__linux__)
    if (pipe2(report, O_CLOEXEC) != 0) { *failed_step = HARNESS_SPAWN_STEP_PIPE; return errno; }
#else
    if (pipe(report) != 0) { *failed_step = HARNESS_SPAWN_STEP_PIPE; return errno; }
    set_cloexec(report[0]);
    set_cloexec(report[1]);
#endif

    // Computed here because sysconf/getrlimit are not async-signal-safe.
    int max_fd = 1024;
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
        max_fd = limit.rlim_cur > 65536 ? 65536 : (int)limit.rlim_cur;
    }

    // Block every signal so no handler of ours runs in the child before it resets them.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);

    pid_t child = fork();
    if (child == 0) {
        close(report[0]);
        run_child(path, argv, envp, working_directory, slave_fd, report[1], max_fd);
        _exit(127); // not reached
    }
    saved = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(report[1]);
    if (child < 0) {
        close(report[0]);
        *failed_step = HARNESS_SPAWN_STEP_FORK;
        return saved;
    }

    int message[2] = { 0, 0 };
    char *cursor = (char *)message;
    size_t received = 0;
    while (received < sizeof message) {
        ssize_t count = read(report[0], cursor + received, sizeof message - received);
        if (count < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (count == 0) break;
        received += (size_t)count;
    }
    close(report[0]);

    if (received == 0) {
        // The pipe closed on exec: the program runs.
        *pid = child;
        *failed_step = HARNESS_SPAWN_STEP_NONE;
        return 0;
    }
    // The child reported a failure and exits: reap it so no zombie remains.
    int status;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    *failed_step = received == sizeof message ? message[0] : HARNESS_SPAWN_STEP_EXECVE;
    return received == sizeof message && message[1] != 0 ? message[1] : EIO;
}

int harness_pidfd_open(pid_t pid) {
#if defined(__linux__) && defined(SYS_pidfd_open)
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

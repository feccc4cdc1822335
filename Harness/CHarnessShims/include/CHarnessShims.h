#ifndef CHARNESS_SHIMS_H
#define CHARNESS_SHIMS_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Steps of `harness_spawn_in_pty` in the child, reported with the errno when one fails.
typedef enum {
    HARNESS_SPAWN_STEP_NONE = 0,
    HARNESS_SPAWN_STEP_SETSID = 1,
    HARNESS_SPAWN_STEP_CONTROLLING_TERMINAL = 2,
    HARNESS_SPAWN_STEP_DUP2 = 3,
    HARNESS_SPAWN_STEP_CHDIR = 4,
    HARNESS_SPAWN_STEP_EXECVE = 5,
    HARNESS_SPAWN_STEP_PIPE = 6,
    HARNESS_SPAWN_STEP_FORK = 7,
} harness_spawn_step;

/// Opens a new pseudo-terminal pair (both descriptors close-on-exec, the slave with
/// IUTF8 set) and sets its window size. Returns 0, or an errno value on failure;
/// `*failed_operation` then names the call that failed (a static string).
int harness_open_pty(int *master_fd, int *slave_fd,
                     unsigned short cols, unsigned short rows,
                     const char **failed_operation);

/// Forks a child that becomes a session leader with `slave_fd` as its controlling
/// terminal and as descriptors 0, 1 and 2, closes every other descriptor, resets
/// signal mask and dispositions, changes to `working_directory` (when not NULL)
/// and executes `path` with `argv` and `envp` (both NULL-terminated).
///
/// Only async-signal-safe calls run in the child. An exec failure is reported to
/// the parent through a close-on-exec pipe carrying the failing step and errno.
///
/// Returns 0 and sets `*pid` when the program was executed; otherwise returns the
/// errno value, sets `*failed_step`, and no child remains (it has been reaped).
int harness_spawn_in_pty(const char *path,
                         char *const argv[],
                         char *const envp[],
                         const char *working_directory,
                         int slave_fd,
                         pid_t *pid,
                         int *failed_step);

/// `pidfd_open(pid, 0)` on Linux 5.3+: a descriptor (close-on-exec) that becomes readable when
/// the process exits. Returns -1 with errno set (ENOSYS where unavailable).
int harness_pidfd_open(pid_t pid);

#ifdef __cplusplus
}
#endif

#endif

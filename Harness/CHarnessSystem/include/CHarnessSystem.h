// The C half of HarnessSystem: what Swift cannot do safely or cannot see.
//
// - Between fork and exec only async-signal-safe calls may run, so the child side of spawning
//   lives here (swift-subprocess keeps it in a C target too).
// - Glibc's Swift module hides the GNU extensions (pipe2, accept4, posix_openpt's O_CLOEXEC
//   use, pidfd_open) that create descriptors close-on-exec atomically.
// - On Darwin, which lacks pipe2 and accept4, descriptors are created and marked close-on-exec
//   under one lock that `fork` here also takes, so a spawn of ours never inherits a descriptor
//   between its creation and its FD_CLOEXEC.
#ifndef CHARNESS_SYSTEM_H
#define CHARNESS_SYSTEM_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Steps of `harness_spawn` in the child, reported with the errno when one fails.
typedef enum {
    HARNESS_SPAWN_STEP_NONE = 0,
    HARNESS_SPAWN_STEP_SETSID = 1,
    HARNESS_SPAWN_STEP_CONTROLLING_TERMINAL = 2,
    HARNESS_SPAWN_STEP_DUP2 = 3,
    HARNESS_SPAWN_STEP_CHDIR = 4,
    HARNESS_SPAWN_STEP_EXECVE = 5,
    HARNESS_SPAWN_STEP_PIPE = 6,
    HARNESS_SPAWN_STEP_FORK = 7,
    HARNESS_SPAWN_STEP_PARENT_DEATH_SIGNAL = 8,
} harness_spawn_step;

/// Opens a new pseudo-terminal pair (both descriptors close-on-exec, the slave with
/// IUTF8 set) and sets its window size. Returns 0, or an errno value on failure;
/// `*failed_operation` then names the call that failed (a static string).
int harness_open_pty(int *master_fd, int *slave_fd,
                     unsigned short cols, unsigned short rows,
                     const char **failed_operation);

/// What `harness_spawn` starts: a program, its arguments and environment (both NULL-terminated),
/// the folder it starts in (NULL: the caller's), and either a pty slave (`terminal_fd` >= 0) that
/// becomes its controlling terminal and its descriptors 0, 1 and 2, or (`terminal_fd` < 0) the
/// three descriptors in `standard_fds` that become its standard input, output and error.
typedef struct {
    const char *path;
    char *const *argv;
    char *const *envp;
    const char *working_directory;
    int terminal_fd;
    int standard_fds[3];
    /// With a signal not 0 (Linux only), the child gets that signal when the thread that called
    /// `harness_spawn` exits (PR_SET_PDEATHSIG: so, for a thread that lives as long as the
    /// process, when the process dies, even by SIGKILL); a child whose parent died before that
    /// took effect exits at once.
    int parent_death_signal;
    /// Set by `harness_spawn` (the spawning process); the caller's value is ignored.
    pid_t parent;
} harness_spawn_request;

/// Forks a child that becomes a session leader (its own session and process group) with the
/// request's terminal or descriptors, closes every other descriptor, resets signal mask and
/// dispositions, changes to the working directory (when not NULL) and executes the program.
///
/// Only async-signal-safe calls run in the child. An exec failure is reported to the parent
/// through a close-on-exec pipe carrying the failing step and errno.
///
/// Returns 0 and sets `*pid` when the program was executed; otherwise returns the errno value,
/// sets `*failed_step`, and no child remains (it has been reaped).
int harness_spawn(const harness_spawn_request *request, pid_t *pid, int *failed_step);

/// `pipe(2)` with both ends close-on-exec (and non-blocking when `nonblocking` is not 0),
/// atomically (`pipe2` on Linux; under the descriptor lock on Darwin). Returns 0, or -1 with
/// errno set.
int harness_pipe(int fds[2], int nonblocking);

/// Returns once every spawn above that had begun when it was called has finished: its child
/// executed (after closing every descriptor but its standard ones) or exited. Until then such a
/// child may hold a copy of any descriptor of this process: one closed here is not released (a
/// listening socket keeps its port) before this returns.
void harness_wait_for_spawns_in_flight(void);

/// `socket(2)` close-on-exec (and non-blocking when `nonblocking` is not 0), atomically
/// (`SOCK_CLOEXEC` on Linux; under the descriptor lock on Darwin, where the socket also gets
/// `SO_NOSIGPIPE`). Returns the descriptor, or -1 with errno set.
int harness_socket(int domain, int type, int nonblocking);

/// `accept(2)` of one connection as a close-on-exec socket (non-blocking when `nonblocking` is
/// not 0), atomically (`accept4` on Linux; under the descriptor lock on Darwin, where the socket
/// also gets `SO_NOSIGPIPE`). Returns the descriptor, or -1 with errno set.
int harness_accept(int listener, int nonblocking);

/// `write(2)` that never raises SIGPIPE: a write to a pipe whose reader is gone fails with
/// EPIPE instead of killing the process. On Linux SIGPIPE is blocked on the calling thread for
/// the call and a SIGPIPE the write raised is consumed (`sigtimedwait` with a zero timeout);
/// on Darwin the descriptor gets `F_SETNOSIGPIPE`. Returns the count written, or -1 with errno.
long harness_write_without_sigpipe(int fd, const void *buffer, unsigned long count);

/// Installs a handler for each of the `count` signals in `signals` that writes one byte, the
/// signal's number, to a close-on-exec pipe, unblocks those signals on the calling thread, and returns the pipe's read
/// end (or -1 with errno set). Installing is synchronous, unlike a Dispatch signal source, so a
/// signal that arrives right after it is not lost. One such pipe per process.
int harness_install_signal_pipe(const int *signals, int count);

/// Makes this process a child subreaper (Linux `PR_SET_CHILD_SUBREAPER`): a descendant whose
/// parent exits is reparented to it instead of to init. Returns 0, or -1 with errno set (ENOSYS
/// where unavailable).
int harness_become_child_subreaper(void);

/// `pidfd_open(pid, 0)` on Linux 5.3+: a descriptor (close-on-exec) that becomes readable when
/// the process exits. Returns -1 with errno set (ENOSYS where unavailable).
int harness_pidfd_open(pid_t pid);

/// Readiness bits of the event loop's poller (`harness_poller_*`).
enum {
    HARNESS_POLLER_READABLE = 1,
    HARNESS_POLLER_WRITABLE = 2,
    HARNESS_POLLER_HANGUP = 4,
    HARNESS_POLLER_ERROR = 8,
};

/// `epoll_create1(EPOLL_CLOEXEC)` on Linux; -1 with errno ENOSYS elsewhere (the event loop then
/// polls with `poll(2)`).
int harness_poller_create(void);

/// Adds (`operation` 0), changes (1) or removes (2) the interest of `poller` in `fd`: a mask
/// of HARNESS_POLLER_READABLE and HARNESS_POLLER_WRITABLE, level-triggered; `token` comes back
/// with each event. Returns 0, or -1 with errno set.
int harness_poller_control(int poller, int operation, int fd, unsigned interest, unsigned long long token);

/// Waits up to `timeout_ms` (-1: no limit) for events, and writes at most `capacity` of them as
/// a token and a mask of HARNESS_POLLER_* bits each. Returns their count (0 on timeout), or -1
/// with errno set (EINTR included: the caller recomputes its timeout).
int harness_poller_wait(int poller, unsigned long long *tokens, unsigned *events, int capacity, int timeout_ms);

/// A one-shot timer descriptor (Linux `timerfd`, monotonic, non-blocking, close-on-exec) that
/// becomes readable when armed time runs out: the event loop's backstop for a job queued
/// without waking it. Returns -1 with errno set (ENOSYS where unavailable).
int harness_backstop_create(void);

/// Arms the timer of `harness_backstop_create` to fire once, `nanoseconds` from now (replacing
/// an earlier arming). Returns 0, or -1 with errno set.
int harness_backstop_arm(int fd, long long nanoseconds);

/// The event loop the calling thread runs (an opaque token its thread set with
/// `harness_set_current_loop`), or NULL on every other thread. A thread-local read: no lock.
const void *harness_current_loop(void);

/// Marks the calling thread as the one running the loop `token` (called once, by that thread).
void harness_set_current_loop(const void *token);

#ifdef __cplusplus
}
#endif

#endif

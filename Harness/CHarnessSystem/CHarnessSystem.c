// The C half of HarnessSystem (see the header): spawning with a controlling terminal or with
// pipes, and descriptors created close-on-exec atomically. On Linux a spawn is a vfork (its cost
// does not grow with the test process's memory, as fork's page-table copy does; the parent
// thread waits until the child executed or exited), elsewhere a fork; either way everything
// between the fork and execve() below is async-signal-safe (or a bare system call: sched_yield),
// touches no memory the parent uses and returns to no caller. The Linux child may also ask for a parent-death signal
// (PR_SET_PDEATHSIG), which posix_spawn cannot express.

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include "CHarnessSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#endif

#if !defined(__linux__)
#include <pthread.h>

// Darwin has no pipe2, accept4 or SOCK_CLOEXEC: a descriptor is created and then marked
// close-on-exec under this lock, which `spawn` holds across fork, so no child of ours is forked
// in between.
static pthread_mutex_t descriptor_creation_lock = PTHREAD_MUTEX_INITIALIZER;

static int set_cloexec(int fd) {
    int flags = fcntl(fd, F_GETFD);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFD, flags | FD_CLOEXEC);
}

static int set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0) return -1;
    return fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

static void set_nosigpipe(int fd) {
    int on = 1;
    (void)setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, sizeof on);
}

// Finishes a socket `fd` just made (or -1, errno set) by a call made holding
// descriptor_creation_lock: marks it close-on-exec (and non-blocking) before releasing the lock,
// then no-SIGPIPE; returns it, or -1 with the failing call's errno.
static int finish_new_socket_locked(int fd, int nonblocking) {
    int saved = errno;
    if (fd >= 0 && (set_cloexec(fd) != 0 || (nonblocking && set_nonblocking(fd) != 0))) {
        saved = errno;
        close(fd);
        fd = -1;
    }
    pthread_mutex_unlock(&descriptor_creation_lock);
    if (fd >= 0) set_nosigpipe(fd);
    errno = saved;
    return fd;
}
#endif

int harness_open_pty(int *master_fd, int *slave_fd,
                     unsigned short cols, unsigned short rows,
                     const char **failed_operation) {
    int saved;
#if defined(__linux__)
    int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (master < 0) { *failed_operation = "posix_openpt"; return errno; }
#else
    pthread_mutex_lock(&descriptor_creation_lock);
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    saved = errno;
    if (master >= 0 && set_cloexec(master) != 0) { saved = errno; close(master); master = -1; }
    pthread_mutex_unlock(&descriptor_creation_lock);
    if (master < 0) { *failed_operation = "posix_openpt"; return saved; }
#endif
    if (grantpt(master) != 0) { saved = errno; *failed_operation = "grantpt"; close(master); return saved; }
    if (unlockpt(master) != 0) { saved = errno; *failed_operation = "unlockpt"; close(master); return saved; }

    char name[128];
    if (ptsname_r(master, name, sizeof name) != 0) {
        saved = errno; *failed_operation = "ptsname_r"; close(master); return saved;
    }
    int slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (slave < 0) { saved = errno; *failed_operation = "open(pty slave)"; close(master); return saved; }

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


// Asks for `request->parent_death_signal` when the spawning thread ends, and exits at once when
// the parent died before the request took effect (the child was then reparented: getppid()
// differs), so no program outlives a harness killed during its spawn.
static void set_parent_death_signal(const harness_spawn_request *request, int report_fd) {
#if defined(__linux__)
    if (request->parent_death_signal == 0) return;
    if (prctl(PR_SET_PDEATHSIG, request->parent_death_signal, 0, 0, 0) != 0) {
        write_failure_and_exit(report_fd, HARNESS_SPAWN_STEP_PARENT_DEATH_SIGNAL);
    }
    if (getppid() != request->parent) _exit(127);
#else
    (void)request;
    (void)report_fd;
#endif
}

static void reset_signals(void) {
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
}

// execve, retrying "Text file busy" for up to about a second. A program spawned in this process
// some other way than harness_spawn (posix_spawn: Foundation's Process, Swift Testing's exit
// tests) holds a copy of every descriptor from its fork until its own exec, possibly the write
// descriptor of the script executed here, whose writer has closed its own copy already: execve
// fails with ETXTBSY until that child executes, a moment later. harness_spawn cannot wait for
// such spawns as it waits for its own (wait_for_older_spawns), so it retries, yielding the CPU;
// a file that stays open for writing still fails, with the same error. Returns with errno set.
static void execute(const char *path, char *const argv[], char *const envp[]) {
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (;;) {
        execve(path, argv, envp);
        if (errno != ETXTBSY) return;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long long elapsed = (long long)(now.tv_sec - start.tv_sec) * 1000000000LL + (now.tv_nsec - start.tv_nsec);
        if (elapsed >= 1000000000LL) { errno = ETXTBSY; return; }
        sched_yield();
    }
}

static void run_child(const harness_spawn_request *request, int report_fd, int max_fd) {
    const char *path = request->path;
    char *const *argv = request->argv;
    char *const *envp = request->envp;
    const char *working_directory = request->working_directory;
    int slave_fd = request->terminal_fd;
    reset_signals();
    set_parent_death_signal(request, report_fd);
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
    execute(path, argv, envp);
    write_failure_and_exit(report_fd, HARNESS_SPAWN_STEP_EXECVE);
}

static void run_pipes_child(const harness_spawn_request *request, int report_fd, int max_fd) {
    reset_signals();
    set_parent_death_signal(request, report_fd);
    // A new session: its own process group (killed as a whole at teardown), no terminal.
    if (setsid() < 0) write_failure_and_exit(report_fd, HARNESS_SPAWN_STEP_SETSID);

    // Move the report pipe and the three descriptors above 2, so that no dup2 below
    // overwrites a descriptor another one still has to be copied from.
    if (report_fd <= 2) {
        int moved = fcntl(report_fd, F_DUPFD_CLOEXEC, 3);
        if (moved < 0) _exit(127);
        report_fd = moved;
    }
    int fds[3];
    for (int target = 0; target <= 2; target++) {
        fds[target] = request->standard_fds[target];
        if (fds[target] <= 2) {
            int moved = fcntl(fds[target], F_DUPFD_CLOEXEC, 3);
            if (moved < 0) write_failure_and_exit(report_fd, HARNESS_SPAWN_STEP_DUP2);
            fds[target] = moved;
        }
    }
    for (int target = 0; target <= 2; target++) {
        while (dup2(fds[target], target) < 0) {
            if (errno != EINTR) write_failure_and_exit(report_fd, HARNESS_SPAWN_STEP_DUP2);
        }
    }
    close_descriptors_from(3, report_fd, max_fd);

    if (request->working_directory != NULL && chdir(request->working_directory) != 0) {
        write_failure_and_exit(report_fd, HARNESS_SPAWN_STEP_CHDIR);
    }
    execute(request->path, request->argv, request->envp);
    write_failure_and_exit(report_fd, HARNESS_SPAWN_STEP_EXECVE);
}

// --- parent side -------------------------------------------------------------

// Spawns in flight: from before fork until the child has executed (or exited after a failure),
// a child holds copies of every descriptor of this process. A list of tickets, oldest first,
// lets `harness_wait_for_spawns_in_flight` wait for the spawns that had begun when it was
// called, and for no later one (so spawns that keep coming cannot starve it).
struct spawn_ticket {
    unsigned long long number;
    struct spawn_ticket *previous;
    struct spawn_ticket *next;
};

static pthread_mutex_t in_flight_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t in_flight_changed = PTHREAD_COND_INITIALIZER;
static struct spawn_ticket *oldest_in_flight = NULL;
static struct spawn_ticket *newest_in_flight = NULL;
static unsigned long long next_ticket_number = 0;

static void enter_spawn(struct spawn_ticket *ticket) {
    pthread_mutex_lock(&in_flight_lock);
    ticket->number = next_ticket_number++;
    ticket->previous = newest_in_flight;
    ticket->next = NULL;
    if (newest_in_flight != NULL) newest_in_flight->next = ticket; else oldest_in_flight = ticket;
    newest_in_flight = ticket;
    pthread_mutex_unlock(&in_flight_lock);
}

static void leave_spawn(struct spawn_ticket *ticket) {
    pthread_mutex_lock(&in_flight_lock);
    if (ticket->previous != NULL) ticket->previous->next = ticket->next; else oldest_in_flight = ticket->next;
    if (ticket->next != NULL) ticket->next->previous = ticket->previous; else newest_in_flight = ticket->previous;
    pthread_cond_broadcast(&in_flight_changed);
    pthread_mutex_unlock(&in_flight_lock);
}

void harness_wait_for_spawns_in_flight(void) {
    pthread_mutex_lock(&in_flight_lock);
    unsigned long long horizon = next_ticket_number;
    while (oldest_in_flight != NULL && oldest_in_flight->number < horizon) {
        pthread_cond_wait(&in_flight_changed, &in_flight_lock);
    }
    pthread_mutex_unlock(&in_flight_lock);
}

static int spawn_registered(const harness_spawn_request *request, pid_t *pid, int *failed_step);

// Waits until every spawn that began before `ticket` has finished. A child forked by one of
// them holds a copy of every descriptor this process had at that fork until it executes: among
// them, possibly, the write descriptor of a script another thread was writing. That thread has
// closed its own copy since and now asks to run the script; executing it while the other child
// still holds a write descriptor fails with ETXTBSY ("Text file busy"). Once the older spawns
// executed, those copies are closed (every child closes all but its standard descriptors first).
static void wait_for_older_spawns(struct spawn_ticket *ticket) {
    pthread_mutex_lock(&in_flight_lock);
    while (oldest_in_flight != ticket) {
        pthread_cond_wait(&in_flight_changed, &in_flight_lock);
    }
    pthread_mutex_unlock(&in_flight_lock);
}

static int spawn(const harness_spawn_request *request, pid_t *pid, int *failed_step) {
    struct spawn_ticket ticket;
    enter_spawn(&ticket);
    wait_for_older_spawns(&ticket);
    int result = spawn_registered(request, pid, failed_step);
    leave_spawn(&ticket);
    return result;
}

// Returns once the child has executed (its report pipe closed: every other descriptor it had
// was closed before) or, after a failure, exited and been reaped.
static int spawn_registered(const harness_spawn_request *request, pid_t *pid, int *failed_step) {
    int report[2];
    int saved;
    if (harness_pipe(report, 0) != 0) { *failed_step = HARNESS_SPAWN_STEP_PIPE; return errno; }

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

#if defined(__linux__)
    // vfork: the child shares this memory until it executes, and this thread waits until then.
    // It only makes system calls on its own stack frames and never returns from here.
    pid_t child = vfork();
#else
    pthread_mutex_lock(&descriptor_creation_lock);
    pid_t child = fork();
#endif
    if (child == 0) {
        close(report[0]);
        if (request->terminal_fd >= 0) {
            run_child(request, report[1], max_fd);
        } else {
            run_pipes_child(request, report[1], max_fd);
        }
        _exit(127); // not reached
    }
    saved = errno;
#if !defined(__linux__)
    pthread_mutex_unlock(&descriptor_creation_lock);
#endif
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


int harness_spawn(const harness_spawn_request *request, pid_t *pid, int *failed_step) {
    harness_spawn_request copy = *request;
    if (copy.terminal_fd < 0 && (copy.standard_fds[0] < 0 || copy.standard_fds[1] < 0 || copy.standard_fds[2] < 0)) {
        *failed_step = HARNESS_SPAWN_STEP_DUP2;
        return EBADF;
    }
    copy.parent = getpid();
    return spawn(&copy, pid, failed_step);
}

// --- descriptors created close-on-exec ---------------------------------------

int harness_pipe(int fds[2], int nonblocking) {
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0));
#else
    pthread_mutex_lock(&descriptor_creation_lock);
    int result = pipe(fds);
    int saved = errno;
    if (result == 0) {
        for (int i = 0; i < 2; i++) {
            if (set_cloexec(fds[i]) != 0 || (nonblocking && set_nonblocking(fds[i]) != 0)) {
                saved = errno;
                close(fds[0]);
                close(fds[1]);
                result = -1;
                break;
            }
        }
    }
    pthread_mutex_unlock(&descriptor_creation_lock);
    errno = saved;
    return result;
#endif
}

int harness_socket(int domain, int type, int nonblocking) {
#if defined(__linux__)
    return socket(domain, type | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
#else
    pthread_mutex_lock(&descriptor_creation_lock);
    return finish_new_socket_locked(socket(domain, type, 0), nonblocking);
#endif
}

int harness_accept(int listener, int nonblocking) {
#if defined(__linux__)
    return accept4(listener, NULL, NULL, SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0));
#else
    pthread_mutex_lock(&descriptor_creation_lock);
    return finish_new_socket_locked(accept(listener, NULL, NULL), nonblocking);
#endif
}

long harness_write_without_sigpipe(int fd, const void *buffer, unsigned long count) {
#if defined(__linux__)
    sigset_t pipe_only, previous, pending;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, &previous);
    // A SIGPIPE already pending (not ours) must stay pending.
    sigemptyset(&pending);
    sigpending(&pending);
    int was_pending = sigismember(&pending, SIGPIPE);
    ssize_t written;
    do {
        written = write(fd, buffer, count);
    } while (written < 0 && errno == EINTR);
    int saved = errno;
    if (!was_pending) {
        // The write raised SIGPIPE on this thread, where it is blocked: take it back. (Linux
        // raises it also when part of the bytes went through before the reader left.)
        sigemptyset(&pending);
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE)) {
            struct timespec zero = { 0, 0 };
            while (sigtimedwait(&pipe_only, NULL, &zero) < 0 && errno == EINTR) {}
        }
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    errno = saved;
    return (long)written;
#else
#if defined(F_SETNOSIGPIPE)
    (void)fcntl(fd, F_SETNOSIGPIPE, 1);
#endif
    ssize_t written;
    do {
        written = write(fd, buffer, count);
    } while (written < 0 && errno == EINTR);
    return (long)written;
#endif
}

// --- signals ------------------------------------------------------------------

static volatile sig_atomic_t signal_pipe_write_end = -1;

static void write_to_signal_pipe(int signal_number) {
    int saved = errno;
    unsigned char byte = (unsigned char)signal_number;
    (void)write(signal_pipe_write_end, &byte, 1);
    errno = saved;
}

int harness_install_signal_pipe(const int *signals, int count) {
    int fds[2];
    if (harness_pipe(fds, 0) != 0) return -1;
    // A full pipe must not block the handler: one byte already says "stop".
    (void)fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK);
    signal_pipe_write_end = fds[1];
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = write_to_signal_pipe;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigset_t unblocked;
    sigemptyset(&unblocked);
    for (int i = 0; i < count; i++) {
        if (sigaction(signals[i], &action, NULL) != 0) {
            int saved = errno;
            close(fds[0]);
            close(fds[1]);
            errno = saved;
            return -1;
        }
        sigaddset(&unblocked, signals[i]);
    }
    pthread_sigmask(SIG_UNBLOCK, &unblocked, NULL);
    return fds[0];
}

int harness_become_child_subreaper(void) {
#if defined(__linux__)
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
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

// --- the event loop's backstop timer ---------------------------------------------

#if defined(__linux__)
#include <sys/timerfd.h>

int harness_backstop_create(void) { return timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC); }

int harness_backstop_arm(int fd, long long nanoseconds) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    spec.it_value.tv_sec = (time_t)(nanoseconds / 1000000000LL);
    spec.it_value.tv_nsec = (long)(nanoseconds % 1000000000LL);
    return timerfd_settime(fd, 0, &spec, NULL);
}
#else
int harness_backstop_create(void) { errno = ENOSYS; return -1; }
int harness_backstop_arm(int fd, long long nanoseconds) {
    (void)fd; (void)nanoseconds;
    errno = ENOSYS;
    return -1;
}
#endif

// --- the event loop's poller ---------------------------------------------------

#if defined(__linux__)
int harness_poller_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int harness_poller_control(int poller, int operation, int fd, unsigned interest, unsigned long long token) {
    struct epoll_event event;
    memset(&event, 0, sizeof event);
    if (interest & HARNESS_POLLER_READABLE) event.events |= EPOLLIN | EPOLLRDHUP;
    if (interest & HARNESS_POLLER_WRITABLE) event.events |= EPOLLOUT;
    event.data.u64 = token;
    int op = operation == 0 ? EPOLL_CTL_ADD : operation == 1 ? EPOLL_CTL_MOD : EPOLL_CTL_DEL;
    return epoll_ctl(poller, op, fd, &event);
}

int harness_poller_wait(int poller, unsigned long long *tokens, unsigned *events, int capacity, int timeout_ms) {
    struct epoll_event ready[64];
    if (capacity > 64) capacity = 64;
    int count = epoll_wait(poller, ready, capacity, timeout_ms);
    for (int index = 0; index < count; index++) {
        unsigned mask = 0;
        if (ready[index].events & (EPOLLIN | EPOLLRDHUP | EPOLLPRI)) mask |= HARNESS_POLLER_READABLE;
        if (ready[index].events & EPOLLOUT) mask |= HARNESS_POLLER_WRITABLE;
        if (ready[index].events & EPOLLHUP) mask |= HARNESS_POLLER_HANGUP;
        if (ready[index].events & EPOLLERR) mask |= HARNESS_POLLER_ERROR;
        tokens[index] = ready[index].data.u64;
        events[index] = mask;
    }
    return count;
}
#else
int harness_poller_create(void) { errno = ENOSYS; return -1; }
int harness_poller_control(int poller, int operation, int fd, unsigned interest, unsigned long long token) {
    (void)poller; (void)operation; (void)fd; (void)interest; (void)token;
    errno = ENOSYS;
    return -1;
}
int harness_poller_wait(int poller, unsigned long long *tokens, unsigned *events, int capacity, int timeout_ms) {
    (void)poller; (void)tokens; (void)events; (void)capacity; (void)timeout_ms;
    errno = ENOSYS;
    return -1;
}
#endif

// The loop a thread runs: set once by each event loop's thread, read by every loop-bound access.
static _Thread_local const void *current_loop_token = NULL;

const void *harness_current_loop(void) { return current_loop_token; }

void harness_set_current_loop(const void *token) { current_loop_token = token; }

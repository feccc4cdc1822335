// Glibc's Swift module hides the GNU extensions accept4 and pipe2; they create descriptors that
// are close-on-exec atomically, so a fork/exec on another thread never inherits them.
#define _GNU_SOURCE
#include "StubsCShims.h"
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

int stubs_accept_cloexec_nonblock(int listener) {
#if defined(__linux__)
    return accept4(listener, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
#else
    int fd = accept(listener, NULL, NULL);
    if (fd >= 0) {
        fcntl(fd, F_SETFD, FD_CLOEXEC);
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
    return fd;
#endif
}

int stubs_pipe_cloexec_nonblock(int fds[2]) {
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC | O_NONBLOCK);
#else
    if (pipe(fds) != 0) return -1;
    for (int i = 0; i < 2; i++) {
        fcntl(fds[i], F_SETFD, FD_CLOEXEC);
        fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK);
    }
    return 0;
#endif
}

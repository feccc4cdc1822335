#ifndef STUBS_C_SHIMS_H
#define STUBS_C_SHIMS_H

/// accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK) where available (Linux); otherwise accept
/// followed by fcntl. Returns the new descriptor or -1 with errno set.
int stubs_accept_cloexec_nonblock(int listener);

/// pipe2(fds, O_CLOEXEC | O_NONBLOCK) where available (Linux); otherwise pipe followed by fcntl.
int stubs_pipe_cloexec_nonblock(int fds[2]);

#endif

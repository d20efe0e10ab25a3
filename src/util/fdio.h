/*
 * fdio.h - move a whole buffer through a file descriptor, retrying short
 * transfers and EINTR: how worker processes (compare -j, the hwloc reader)
 * hand their results back over a pipe.
 */
#ifndef WS_FDIO_H
#define WS_FDIO_H

#include <stddef.h>

/* Write or read exactly len bytes; 0, or -1 on an error or end of file. */
int write_all(int fd, const void *buf, size_t len);
int read_all(int fd, void *buf, size_t len);

#endif
